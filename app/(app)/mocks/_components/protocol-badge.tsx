import { Badge } from "@/components/ui/badge";

export function ProtocolBadge({ protocol }: { protocol: string }) {
  return (
    <Badge variant="secondary" className="font-mono uppercase">
      {protocol}
    </Badge>
  );
}
