// Plugin wire codecs: with SERVICE_UNIFIED_PORT=1 the protocol runner opens one
// extra TCP port (PLUGIN_PORT) that speaks several wire protocols, told apart
// by a connection's first bytes. Each decoded message is served as a socket
// mock whose `serverName` is the codec's (`plugin:<codec>`).
import { z } from "zod";
import { endpoint } from "./endpoint";

export const PLUGIN_CODECS = [
  {
    codec: "resp",
    name: "Redis serialization protocol (RESP2)",
    serverName: "plugin:resp",
    detectedBy: "a first byte '*' (a RESP array: what every Redis client sends)",
    event: "the command name, upper case (GET, SET, HGETALL, …)",
    body: "the arguments as a list of strings: $[0] is the key",
    reply: "string → bulk string, number → integer, null → nil, list → array, {\"simple\": \"OK\"} → +OK, {\"error\": \"ERR …\"} → an error reply, any other object → its JSON as a bulk string",
    namespace: "AUTH <namespace> <any password> (redis://<namespace>:x@host:port); else sandbox",
  },
  {
    codec: "line",
    name: "Newline-delimited text or JSON",
    serverName: "plugin:line",
    detectedBy: "any other first byte",
    event: "a JSON line's `event` (its `data` is the body); else `message` with the line as the body",
    body: "the JSON value of the line (or of its `data`), else the line as text",
    reply: "the payload as one line: a string as is, other values as JSON",
    namespace: "a first line `AUTH <namespace>` (answered `OK`); else sandbox",
  },
] as const;

export const PluginCodec = z.enum(["resp", "line"]);
export type PluginCodec = z.infer<typeof PluginCodec>;

export const PluginProtocolView = z.object({
  codec: PluginCodec,
  name: z.string(),
  serverName: z.string().describe("the exact `socket.serverName` a mock gives to answer this codec"),
  transport: z.literal("tcp"),
  port: z.number().int().describe("PLUGIN_PORT, shared by every codec"),
  state: z.enum(["listening", "error", "stopped", "unknown"]).describe("the runner's listener; unknown when the runner does not answer"),
  reason: z.string().nullable(),
  detectedBy: z.string(),
  event: z.string().describe("what a mock's socket.event matches"),
  body: z.string().describe("what conditions and $.req see"),
  reply: z.string().describe("how response.payload is encoded"),
  namespace: z.string().describe("how a connection picks its namespace"),
  mocks: z.number().int().describe("active socket mocks of the namespace naming this serverName"),
});
export type PluginProtocolView = z.infer<typeof PluginProtocolView>;
export const PluginProtocolList = z.object({
  enabled: z.boolean().describe("whether the plugin wire listener runs (SERVICE_UNIFIED_PORT=1)"),
  protocols: z.array(PluginProtocolView),
});
export type PluginProtocolList = z.infer<typeof PluginProtocolList>;

export const pluginProtocolEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/v1/plugin-protocols",
    tag: "Protocol servers",
    summary: "Plugin wire codecs active for the namespace, each with the socket serverName a mock uses (empty unless SERVICE_UNIFIED_PORT=1)",
    auth: "user",
    namespaced: true,
    permission: "read",
    response: PluginProtocolList,
  }),
} as const;
