import { defineRoute } from "@/server/http/define-route";
import { healthEndpoints } from "@/server/contracts/health";

export const dynamic = "force-dynamic";
export const GET = defineRoute(healthEndpoints.live, () => ({ status: "alive" as const }));
