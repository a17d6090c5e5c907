// `npm run bench -- --peers`: WireMock (npm `wiremock`: its standalone jar,
// run on the machine's Java, request journal and logging off) and Mockoon
// CLI (`@mockoon/cli`, transaction log off) on the same workloads. Both are
// installed on demand into bench/.peers, outside the project's dependencies.
// Each peer gets the mocks of every workload so far, as ours has them in its
// namespace (so W5 is W1 among 10,000 other routes for them too).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const PEER_PACKAGES = ["wiremock@3.13.2", "@mockoon/cli@9.9.0"];

export interface Peer {
  name: string;
  url: string;
  pid: number;
  /** Adds the mocks of workload W1…W5 (cumulative); false for the others (SSE, GraphQL: ours only). */
  prepare(key: string): Promise<boolean>;
  stop(): void;
}

interface Route {
  method: "GET" | "POST";
  /** A literal path, or with one `:id` parameter. */
  path: string;
  /** Body condition `type == value` (W3). */
  bodyType?: string;
  /** JSON body; `{{id}}` and `{{uuid}}` are templated (W4). */
  body: string;
}

/** The mocks each workload adds, the same as bench/run.ts creates in our namespace. */
function routesOf(key: string): Route[] | undefined {
  switch (key) {
    case "W1":
      return [{ method: "GET", path: "/w1/hello", body: JSON.stringify({ hello: "world" }) }];
    case "W2":
      return Array.from({ length: 100 }, (_, i) => ({ method: "GET", path: `/api/r${i}/items/:id`, body: JSON.stringify({ route: i }) }));
    case "W3":
      return Array.from({ length: 100 }, (_, i) => ({ method: "POST", path: "/api/orders", bodyType: `t${i}`, body: JSON.stringify({ type: `t${i}` }) }));
    case "W4":
      return [{ method: "GET", path: "/w4/items/:id", body: '{"id":"{{id}}","uuid":"{{uuid}}"}' }];
    case "W5":
      return Array.from({ length: 10_000 }, (_, i) => ({ method: "GET", path: `/other/r${i}/x`, body: JSON.stringify({ i }) }));
    default:
      return undefined;
  }
}

export function installPeers(root: string): string {
  const dir = path.join(root, "bench", ".peers");
  if (existsSync(path.join(dir, "node_modules", "wiremock")) && existsSync(path.join(dir, "node_modules", "@mockoon", "cli"))) return dir;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "polymock-bench-peers", private: true }));
  console.log(`installing ${PEER_PACKAGES.join(", ")} into bench/.peers…`);
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--no-save", ...PEER_PACKAGES], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) throw new Error("could not install the peers");
  return dir;
}

async function waitUp(url: string, child: ChildProcess, name: string) {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode})`);
    try {
      await fetch(url);
      return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not start`);
}

export async function startWireMock(dir: string, port: number): Promise<Peer> {
  const buildDir = path.join(dir, "node_modules", "wiremock", "build");
  const jar = path.join(buildDir, readdirSync(buildDir).find((f) => f.endsWith(".jar"))!);
  // --root-dir: WireMock makes its mappings/ and __files/ there, not in the checkout.
  mkdirSync(path.join(dir, "wiremock", "mappings"), { recursive: true });
  const child = spawn("java", ["-jar", jar, "--port", String(port), "--bind-address", "127.0.0.1", "--root-dir", path.join(dir, "wiremock"), "--no-request-journal", "--disable-request-logging", "--disable-banner"], { stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${port}`;
  await waitUp(`${url}/__admin/health`, child, "WireMock");
  const mapping = (r: Route) => {
    const request: Record<string, unknown> = { method: r.method };
    if (r.path.includes(":id")) request.urlPathPattern = r.path.replace(":id", "[^/]+");
    else request.urlPath = r.path;
    if (r.bodyType) request.bodyPatterns = [{ matchesJsonPath: { expression: "$.type", equalTo: r.bodyType } }];
    const templated = r.body.includes("{{");
    const body = r.body.replace("{{id}}", "{{request.path.[2]}}").replace("{{uuid}}", "{{randomValue type='UUID'}}");
    return { request, response: { status: 200, headers: { "Content-Type": "application/json" }, body, ...(templated ? { transformers: ["response-template"] } : {}) } };
  };
  return {
    name: "WireMock",
    url,
    pid: child.pid!,
    async prepare(key) {
      const routes = routesOf(key);
      if (!routes) return false;
      const res = await fetch(`${url}/__admin/mappings/import`, { method: "POST", body: JSON.stringify({ mappings: routes.map(mapping) }) });
      if (!res.ok) throw new Error(`WireMock import: ${res.status} ${await res.text()}`);
      return true;
    },
    stop: () => child.kill("SIGKILL"),
  };
}

/** Mockoon reads its environment at start: each prepare restarts it with the routes so far. */
export async function startMockoon(dir: string, port: number): Promise<Peer> {
  const bin = path.join(dir, "node_modules", "@mockoon", "cli", "bin", "run.js");
  const file = path.join(dir, "environment.json");
  const routes: Route[] = [];
  let child: ChildProcess | undefined;
  const url = `http://127.0.0.1:${port}`;
  const peer: Peer = {
    name: "Mockoon",
    url,
    pid: 0,
    async prepare(key) {
      const added = routesOf(key);
      if (!added) return false;
      routes.push(...added);
      writeFileSync(file, JSON.stringify(environment(routes, port)));
      child?.kill("SIGKILL");
      child = spawn(process.execPath, [bin, "start", "--data", file, "--port", String(port), "--disable-log-to-file", "--disable-admin-api"], { stdio: ["ignore", "ignore", "inherit"] });
      peer.pid = child.pid!;
      await waitUp(`${url}/w1/hello`, child, "Mockoon");
      return true;
    },
    stop: () => child?.kill("SIGKILL"),
  };
  return peer;
}

/** A Mockoon environment (its schema fills every field left out). W3's hundred mocks are one route with a rule per response, as Mockoon models it. */
function environment(routes: Route[], port: number) {
  const byEndpoint = new Map<string, Route[]>();
  for (const r of routes) {
    const k = `${r.method} ${r.path}`;
    byEndpoint.set(k, [...(byEndpoint.get(k) ?? []), r]);
  }
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
  const mockoonRoutes = [...byEndpoint.values()].map((group) => ({
    uuid: uuid(),
    type: "http",
    method: group[0].method.toLowerCase(),
    endpoint: group[0].path.slice(1),
    responses: group.map((r, i) => ({
      uuid: uuid(),
      body: r.body.replace("{{id}}", "{{urlParam 'id'}}").replace("{{uuid}}", "{{faker 'string.uuid'}}"),
      statusCode: 200,
      headers: [{ key: "Content-Type", value: "application/json" }],
      default: group.length === 1 && i === 0,
      rules: r.bodyType ? [{ target: "body", modifier: "type", value: r.bodyType, invert: false, operator: "equals" }] : [],
    })),
  }));
  return { uuid: uuid(), lastMigration: 33, name: "polymock-bench", port, routes: mockoonRoutes, rootChildren: mockoonRoutes.map((r) => ({ type: "route", uuid: r.uuid })) };
}
