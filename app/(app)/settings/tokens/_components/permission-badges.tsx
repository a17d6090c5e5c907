// A credential's permissions as a row of small badges (read, write, delete…).
import { Badge } from "@/components/ui/badge";

export function PermissionBadges({ permissions }: { permissions: readonly string[] }) {
  return (
    <div className="flex flex-wrap gap-1">
      {permissions.map((p) => (
        <Badge key={p} variant="secondary">
          {p}
        </Badge>
      ))}
    </div>
  );
}
