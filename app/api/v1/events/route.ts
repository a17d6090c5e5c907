import { eventEndpoints } from "@/server/contracts/events";
import { defineRoute } from "@/server/http/define-route";
import { liveEventStream } from "@/server/services/live-stream";

export const dynamic = "force-dynamic";
export const GET = defineRoute(eventEndpoints.stream, ({ namespace, req }) => liveEventStream(namespace.id, req.signal));
