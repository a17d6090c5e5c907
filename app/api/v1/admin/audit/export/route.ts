import { auditEndpoints } from "@/server/contracts/audit";
import { defineRoute } from "@/server/http/define-route";
import { exportAudit } from "@/server/services/audit-export";

export const GET = defineRoute(auditEndpoints.export, async ({ query }) => {
  const file = await exportAudit(query);
  return new Response(file.body, {
    headers: { "Content-Type": file.contentType, "Content-Disposition": `attachment; filename="${file.filename}"`, "Cache-Control": "no-store" },
  });
});
