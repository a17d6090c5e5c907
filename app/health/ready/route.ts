import { defineRoute, Reply } from "@/server/http/define-route";
import { healthEndpoints } from "@/server/contracts/health";
import { readiness } from "@/server/services/health";

export const dynamic = "force-dynamic";
export const GET = defineRoute(healthEndpoints.ready, async () => {
  const { httpStatus, body } = await readiness();
  return new Reply(body, { status: httpStatus });
});
