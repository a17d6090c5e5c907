// k6's own example scripts (examples/*.js of grafana/k6, kept unmodified in
// __fixtures__/k6-examples) run through the load engine as k6 would run them.
// They call httpbin.org; k6's `hosts` option (given as a run override, the
// scripts stay as written) sends httpbin.org's http and https to a local
// server that answers httpbin's way: /get, /post, /put, /patch, /delete with
// args, form, json and headers, /basic-auth, /redirect/n.
import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tlsCertificate } from "@/protocol-runner/smtp/tls-certificate";
import { type LoadRunResult, runLoadTest } from "./engine";

const FIXTURES = path.join(import.meta.dirname, "__fixtures__", "k6-examples");
const example = (name: string) => readFileSync(path.join(FIXTURES, `${name}.js`), "utf8");

function canonical(name: string) {
  return name.replace(/(^|-)([a-z])/g, (_, d: string, c: string) => d + c.toUpperCase());
}

function httpbin(req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://httpbin.org");
    const data = Buffer.concat(chunks).toString();
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [canonical(k), String(v)]));
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const n = Number(redirect[1]);
      return void res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : "/get" }).end();
    }
    const auth = /^\/basic-auth\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (auth) {
      const expected = `Basic ${Buffer.from(`${auth[1]}:${auth[2]}`).toString("base64")}`;
      return req.headers.authorization === expected ? json(200, { authenticated: true, user: auth[1] }) : void res.writeHead(401).end();
    }
    const type = req.headers["content-type"] ?? "";
    const form = type.includes("x-www-form-urlencoded") ? Object.fromEntries(new URLSearchParams(data)) : {};
    let body: unknown = null;
    if (type.includes("json")) body = JSON.parse(data);
    if (url.pathname === "/") return void res.writeHead(200, { "content-type": "text/html" }).end("<html><body>httpbin</body></html>");
    json(200, { args: Object.fromEntries(url.searchParams), data, form, json: body, headers, method: req.method, url: url.href });
  });
}

let plain: http.Server;
let secure: https.Server;
let hosts: Record<string, string>;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  plain = http.createServer(httpbin);
  secure = https.createServer(await tlsCertificate(), httpbin);
  await Promise.all([new Promise<void>((r) => plain.listen(0, "127.0.0.1", r)), new Promise<void>((r) => secure.listen(0, "127.0.0.1", r))]);
  hosts = {
    "httpbin.org:80": `127.0.0.1:${(plain.address() as AddressInfo).port}`,
    "httpbin.org:443": `127.0.0.1:${(secure.address() as AddressInfo).port}`,
  };
});

afterAll(() => {
  plain.close();
  secure.close();
});

function run(name: string, options: Record<string, unknown> = {}): Promise<LoadRunResult> {
  return runLoadTest({ source: example(name), options: { hosts, insecureSkipTLSVerify: true, ...options } });
}

function checks(r: LoadRunResult): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  const walk = (g: LoadRunResult["summary"]["root_group"]) => {
    for (const c of g.checks) out[c.path] = [c.passes, c.fails];
    g.groups.forEach(walk);
  };
  walk(r.summary.root_group);
  return out;
}

describe("k6's example scripts, unchanged", () => {
  it("http_verbs.js: every verb in its group, httpbin's echo checked", async () => {
    const r = await run("http_verbs");
    expect(r.status).toBe("passed");
    expect(checks(r)).toEqual({
      "::GET::status is 200": [1, 0],
      "::GET::is verb correct": [1, 0],
      "::POST::status is 200": [1, 0],
      "::POST::is verb correct": [1, 0],
      "::PUT::status is 200": [1, 0],
      "::PUT::is verb correct": [1, 0],
      "::PATCH::status is 200": [1, 0],
      "::PATCH::is verb correct": [1, 0],
      "::DELETE::status is 200": [1, 0],
      "::DELETE::is verb correct": [1, 0],
    });
    expect(r.summary.metrics.http_reqs.values.count).toBe(5);
  });

  it("json.js, base64.js and http_basic_auth.js pass every check", async () => {
    for (const name of ["json", "base64", "http_basic_auth"]) {
      const r = await run(name);
      expect(r.status, name).toBe("passed");
      const all = Object.values(checks(r));
      expect(all.length, name).toBeGreaterThan(0);
      expect(all.every(([, fails]) => fails === 0), `${name}: ${JSON.stringify(checks(r))}`).toBe(true);
    }
  });

  it("redirects.js: options.maxRedirects stops a longer chain; a request's own redirects follows one over TLS", async () => {
    // As in k6, every hop is a request of its own in the metrics, with its own status: 5 followed 302s and the last 302, then a 302 and the 200.
    const r = await run("redirects", { thresholds: { "http_reqs{status:302}": ["count==7"], "http_reqs{status:200}": ["count==1"], "http_reqs{url:https://httpbin.org/get}": ["count==1"] } });
    expect(checks(r)).toEqual({ "::is status 302": [1, 0], "::is status 200": [1, 0], "::url is correct": [1, 0] });
    expect(r.logs).toEqual(["info [VU 1] 200"]);
    expect(r.summary.metrics.http_reqs.values.count).toBe(8);
    expect(r.thresholds.map((t) => [t.key, t.ok])).toEqual([
      ["http_reqs{status:302}", true],
      ["http_reqs{status:200}", true],
      ["http_reqs{url:https://httpbin.org/get}", true],
    ]);
  });

  it("custom_metrics.js and tagging.js: the four metric types, tags on requests, checks and custom metrics", async () => {
    const m = await run("custom_metrics", { iterations: 3 });
    expect(m.status).toBe("passed");
    expect(m.summary.metrics.my_counter.values.count).toBe(3);
    expect(m.summary.metrics.my_rate.values.rate).toBe(1);
    expect(m.summary.metrics.my_trend.values.avg).toBeGreaterThanOrEqual(0);
    expect(m.summary.metrics.my_gauge.values.value).toBeGreaterThan(0);
    expect(m.logs[0]).toBe("info [VU 1] my_counter  is config ready");

    const t = await run("tagging", { thresholds: { "http_reqs{my_tag:I'm a tag}": ["count==1"], "checks{my_tag:I'm a tag}": ["rate==1"] } });
    expect(t.status).toBe("passed");
    expect(t.thresholds.every((x) => x.ok)).toBe(true);
  });

  it("logging.js: every console level reaches the run's log", async () => {
    const r = await run("logging");
    expect(r.logs).toEqual(["info [VU 1] log a b", "debug [VU 1] debug a b", "info [VU 1] info a b", "warn [VU 1] warn a b", "error [VU 1] error a b"]);
  });

  it("stages.js: its ramp, shortened by an override of the stages", async () => {
    const r = await run("stages", { stages: [{ duration: "1s", target: 3 }, { duration: "1s", target: 0 }] });
    expect(r.status).toBe("passed");
    expect(r.summary.metrics.vus_max.values.value).toBe(3);
    expect(r.summary.metrics.checks.values.fails).toBe(0);
  });
});
