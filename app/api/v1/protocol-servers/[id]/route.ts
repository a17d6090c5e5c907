// One protocol server: read, change, delete.
import { protocolServerEndpoints } from "@/server/contracts/protocol-servers";
import { defineRoute } from "@/server/http/define-route";
import { deleteProtocolServer, getProtocolServer, updateProtocolServer } from "@/server/services/protocol-servers";

export const GET = defineRoute(protocolServerEndpoints.get, ({ namespace, params }) => getProtocolServer(namespace, params.id));
export const PUT = defineRoute(protocolServerEndpoints.update, ({ namespace, params, body }) => updateProtocolServer(namespace, params.id, body));
export const DELETE = defineRoute(protocolServerEndpoints.remove, ({ namespace, params }) => deleteProtocolServer(namespace, params.id));
