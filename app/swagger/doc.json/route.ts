import { defineRoute } from "@/server/http/define-route";
import { healthEndpoints } from "@/server/contracts/health";
import { buildOpenApi } from "@/server/http/openapi";
import { releaseId } from "@/server/release";

export const dynamic = "force-dynamic";
export const GET = defineRoute(healthEndpoints.openapi, () => buildOpenApi(releaseId()));
