import { defineRoute } from "@/server/http/define-route";
import { healthEndpoints } from "@/server/contracts/health";
import { metricsExposition } from "@/server/observability/metrics";

export const dynamic = "force-dynamic";
export const GET = defineRoute(healthEndpoints.metrics, async () => {
  const { text, contentType } = await metricsExposition();
  return new Response(text, { headers: { "Content-Type": contentType } });
});
