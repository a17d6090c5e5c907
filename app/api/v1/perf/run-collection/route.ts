// Load test collections (their requests become a k6 script).
import { perfCollectionEndpoints as e } from "@/server/contracts/perf-collection-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { runCollectionLoad } from "@/server/services/perf/collection-runs";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.runCollection, ({ actor, namespace, body }) => runCollectionLoad(actor, namespace, body));
