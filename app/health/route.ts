import { defineRoute, Reply } from "@/server/http/define-route";
import { healthEndpoints } from "@/server/contracts/health";
import { health } from "@/server/services/health";

export const dynamic = "force-dynamic";
export const GET = defineRoute(healthEndpoints.health, async () => {
  const { httpStatus, body } = await health();
  return new Reply(body, { status: httpStatus });
});
