// Whether a protocol server answers (a connection to it, or the runner's state for UDP).
import { protocolServerEndpoints } from "@/server/contracts/protocol-servers";
import { defineRoute } from "@/server/http/define-route";
import { testProtocolServer } from "@/server/services/protocol-servers";

export const POST = defineRoute(protocolServerEndpoints.test, ({ namespace, params }) => testProtocolServer(namespace, params.id));
