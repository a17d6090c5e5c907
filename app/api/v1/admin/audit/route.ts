import { auditEndpoints } from "@/server/contracts/audit";
import { defineRoute } from "@/server/http/define-route";
import { listAudit } from "@/server/services/audit-export";

export const GET = defineRoute(auditEndpoints.list, ({ query }) => listAudit(query));
