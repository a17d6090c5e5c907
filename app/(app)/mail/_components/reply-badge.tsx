// The SMTP reply a sender got, and which mock gave it: at a glance in the list and the detail.
import { Badge } from "@/components/ui/badge";

export function ReplyBadge({ code }: { code: number }) {
  return (
    <Badge variant={code >= 500 ? "destructive" : code >= 400 ? "warning" : "success"} className="font-mono tabular-nums">
      {code}
    </Badge>
  );
}

export function MockBadge({ mockId }: { mockId: string | null }) {
  if (!mockId) return <Badge variant="outline">unmatched</Badge>;
  return (
    <Badge variant="secondary" className="max-w-40 truncate font-mono" title={mockId}>
      {mockId}
    </Badge>
  );
}
