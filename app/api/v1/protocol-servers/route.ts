// The namespace's protocol servers: list and create.
import { protocolServerEndpoints } from "@/server/contracts/protocol-servers";
import { defineRoute } from "@/server/http/define-route";
import { createProtocolServer, listProtocolServers } from "@/server/services/protocol-servers";

export const GET = defineRoute(protocolServerEndpoints.list, ({ namespace }) => listProtocolServers(namespace));
export const POST = defineRoute(protocolServerEndpoints.create, ({ namespace, body }) => createProtocolServer(namespace, body));
