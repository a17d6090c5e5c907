// Runs the README's examples as written, against the real server: every `sh`
// block that creates a mock or calls a stub goes through bash and the real
// curl, every `js` block with expected output through node. Only the origin
// and the namespace are swapped (a token pinned to a fresh namespace, so the
// examples' "sandbox" mocks cannot collide with other specs'). Each `# → …` /
// `// → …` line must appear in the output, in order; `…` stands for anything.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { apiAsAdmin } from "./support/session";

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface Example {
  lang: string;
  code: string;
  heading: string;
  expected: string[];
}

function examples(): Example[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const found: Example[] = [];
  let heading = "";
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  let last = 0;
  for (let m = fence.exec(readme); m; m = fence.exec(readme)) {
    for (const h of readme.slice(last, m.index).matchAll(/^#{2,3} (.+)$/gm)) heading = h[1];
    last = m.index + m[0].length;
    const [, lang, code] = m;
    const marker = lang === "js" ? "// → " : "# → ";
    const expected = code.split("\n").filter((l) => l.startsWith(marker)).map((l) => l.slice(marker.length));
    const runnable = (lang === "sh" && /localhost:5770\/(stubs\/|api\/v1\/mocks)/.test(code)) || (lang === "js" && expected.length > 0);
    if (runnable) found.push({ lang, code, heading, expected });
  }
  return found;
}

function pattern(line: string) {
  const escaped = line.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/…/g, ".*");
  return new RegExp(`^${escaped}$`);
}

function expectInOrder(output: string, expected: string[], where: string) {
  const lines = output.split("\n").map((l) => l.trim());
  let at = 0;
  for (const want of expected) {
    const re = pattern(want);
    const hit = lines.findIndex((l, i) => i >= at && re.test(l));
    expect(hit, `${where}: expected a line like ${JSON.stringify(want)} in:\n${output}`).toBeGreaterThanOrEqual(0);
    at = hit + 1;
  }
}

test("every README example works as written", async ({ request, baseURL }) => {
  test.setTimeout(120_000);
  const list = examples();
  // The README documents at least these: a failed parse must not pass silently.
  expect(list.map((e) => e.heading)).toEqual(expect.arrayContaining(["A first mock in 60 seconds", "GraphQL", "SOAP", "Server-sent events (SSE)", "WebSocket", "MCP", "S3"]));

  const api = await apiAsAdmin(request);
  const namespace = `readme-${Date.now().toString(36)}`;
  expect((await api.post("/api/v1/namespaces", { data: { name: namespace } })).status()).toBe(201);
  const created = await api.post("/api/v1/auth/tokens", { data: { name: namespace, permissions: ["read", "write", "delete"], namespace } });
  expect(created.status(), await created.text()).toBe(201);
  const { token } = await created.json();

  const origin = baseURL!;
  const localize = (code: string) =>
    code
      .replaceAll("http://localhost:5770", origin)
      .replaceAll("ws://localhost:5770", origin.replace(/^http/, "ws"))
      .replaceAll("/stubs/sandbox", `/stubs/${namespace}`);

  for (const example of list) {
    const where = `README "${example.heading}" ${example.lang} block`;
    let output: string;
    if (example.lang === "sh") {
      // A newline after each curl, as a terminal shows it; the block itself is unchanged.
      const script = `set -e\ncurl() { command curl --max-time 20 "$@"; echo; }\n${localize(example.code)}`;
      ({ stdout: output } = await run("bash", ["-c", script], { env: { ...process.env, TOKEN: token }, timeout: 60_000 }));
    } else {
      // In the checkout, so `import … from "ws"` resolves as after `npm install ws`.
      const file = path.join(root, `.readme-example-${process.pid}.mjs`);
      writeFileSync(file, localize(example.code));
      try {
        ({ stdout: output } = await run(process.execPath, [file], { timeout: 30_000 }));
      } finally {
        rmSync(file, { force: true });
      }
    }
    expectInOrder(output, example.expected, where);
  }
});
