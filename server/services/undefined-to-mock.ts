// The mock block an undefined request of another protocol than HTTP becomes
// ("create mock from an undefined request"), from what the stub path stored:
//   mcp: path "<server path> <tools/call|prompts/get|resources/read> <name>"
//   s3:  path "/<bucket>/<key>"
// undefined when the row does not have that shape. A `response` key replaces
// the default answer (200 with {}): an S3 bucket gets none, so it only stores.
import { mcpServerPath } from "@/server/engine/protocols/mcp";

type Block = Record<string, unknown>;

export const MOCK_FROM_UNDEFINED: Record<string, (row: { path: string }) => Block | undefined> = {
  mcp(row) {
    const m = /^(\S+) (tools\/call|prompts\/get|resources\/read) (.+)$/.exec(row.path);
    if (!m) return undefined;
    const [, server, method, name] = m;
    const field = method === "tools/call" ? "tool" : method === "prompts/get" ? "prompt" : "resource";
    const path = mcpServerPath(server);
    return { ...(path === "/" ? {} : { pathPrefix: path }), mcp: { method, [field]: name } };
  },
  s3(row) {
    const bucket = row.path.split("/")[1];
    if (!bucket) return undefined;
    try {
      return { s3: { bucket: decodeURIComponent(bucket) }, response: undefined };
    } catch {
      return undefined;
    }
  },
};
