import type { z } from "zod";
import { Badge } from "@/components/ui/badge";
import type { CredentialStatus } from "@/server/contracts/auth";

const VARIANT = { active: "success", expired: "warning", revoked: "destructive" } as const;
const LABEL = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

export function StatusBadge({ status }: { status: z.infer<typeof CredentialStatus> }) {
  return <Badge variant={VARIANT[status]}>{LABEL[status]}</Badge>;
}
