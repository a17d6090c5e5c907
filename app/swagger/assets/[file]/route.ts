import { readFile } from "node:fs/promises";
import path from "node:path";

// Only these files of swagger-ui-dist are served; nothing else on disk is reachable.
const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const INIT = `window.ui = SwaggerUIBundle({
  url: "/swagger/doc.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout"
});`;

export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }) {
  const { file } = await ctx.params;
  if (file === "init.js") return new Response(INIT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
  const type = FILES[file];
  if (!type) return Response.json({ error: "Not found", code: "not_found", request_id: "-" }, { status: 404 });
  const body = await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(new Uint8Array(body), { headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}
