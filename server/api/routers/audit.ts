// The audit log, newest first. Exports are plain downloads from REST
// (/api/v1/admin/audit/export?format=…), which the browser saves as files.
import { AuditListQuery } from "@/server/contracts/audit";
import { listAudit } from "@/server/services/audit-export";
import { adminProcedure, createTRPCRouter } from "../trpc";

export const auditRouter = createTRPCRouter({
  list: adminProcedure.input(AuditListQuery).query(({ input }) => listAudit(input)),
});
