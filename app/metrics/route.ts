import { defineRoute } from "@/server/http/define-route";
import { healthEndpoints } from "@/server/contracts/health";
import { metrics } from "@/server/observability/metrics";

export const dynamic = "force-dynamic";
export const GET = defineRoute(healthEndpoints.metrics, async () => {
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { "Content-Type": registry.contentType } });
});
