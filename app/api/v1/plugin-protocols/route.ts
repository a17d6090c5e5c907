// The plugin wire codecs and the socket serverName each one answers to.
import { pluginProtocolEndpoints } from "@/server/contracts/plugin-protocols";
import { defineRoute } from "@/server/http/define-route";
import { listPluginProtocols } from "@/server/services/plugin-protocols";

export const GET = defineRoute(pluginProtocolEndpoints.list, ({ namespace }) => listPluginProtocols(namespace));
