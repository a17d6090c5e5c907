import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoadHttpClient } from "./http-driver";
import { checkScript, K6Vu, ScriptError, type VuHost } from "./vu";

let server: http.Server;
let base: string;
const client = new LoadHttpClient();

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url === "/redirect") {
        res.writeHead(302, { location: "/json" });
        return res.end();
      }
      if (req.url === "/fail") {
        res.writeHead(503);
        return res.end("down");
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, url: req.url, body, contentType: req.headers["content-type"] ?? null, items: [{ id: 1 }, { id: 2 }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await client.close();
  server.close();
});

type TestHost = VuHost & { logs: string[]; store: Map<string, string>; requests: number };

function host(files: Record<string, string> = {}): TestHost {
  const store = new Map<string, string>();
  const h: TestHost = {
    logs: [],
    requests: 0,
    store,
    shared(name, json) {
      if (json !== undefined) store.set(name, json);
      return store.get(name);
    },
    async http(_vu, reqs) {
      h.requests += reqs.length;
      return Promise.all(reqs.map((r) => client.send(r)));
    },
    sleep: (ms) => new Promise<void>((r) => setTimeout(r, ms)),
    open(path) {
      if (!(path in files)) throw new Error(`open: no file "${path}" was uploaded with the run`);
      return files[path];
    },
    log: (_vu, level, text) => void h.logs.push(`${level}: ${text}`),
    abort: () => {},
  };
  return h;
}

describe("a k6 VU in its isolate", () => {
  it("runs a script from k6's documentation unchanged: http, check, group, sleep, custom metrics, __ENV, __VU/__ITER", async () => {
    const source = `
import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { Trend, Counter } from 'k6/metrics';
import { SharedArray } from 'k6/data';

const users = new SharedArray('users', function () { return JSON.parse(open('./users.json')); });
const myTrend = new Trend('waiting_time', true);
const hits = new Counter('my_hits');

export const options = { vus: 2, duration: '1s', thresholds: { http_req_duration: ['p(95)<500'] } };

export default function () {
  group('api', function () {
    const res = http.get(__ENV.BASE + '/json?vu=' + __VU + '&iter=' + __ITER, { tags: { name: 'json' } });
    check(res, {
      'status is 200': (r) => r.status === 200,
      'has two items': (r) => r.json('items.#') === 2,
      'second id': (r) => r.json('items.1.id') === 2,
    });
    myTrend.add(res.timings.waiting);
    hits.add(1, { user: users[__ITER % users.length].name });
  });
  const post = http.post(__ENV.BASE + '/form', { a: 1, b: 'x y' });
  check(post, { 'form encoded': (r) => r.json().body === 'a=1&b=x+y' && r.json().contentType === 'application/x-www-form-urlencoded' });
  const redirected = http.get(__ENV.BASE + '/redirect');
  check(redirected, { 'followed the redirect': (r) => r.url.endsWith('/json') && r.status === 200 });
  console.log('done', __VU, __ITER);
  sleep(0.01);
}`;
    const h = host({ "./users.json": JSON.stringify([{ name: "ada" }, { name: "bob" }]) });
    const vu = await K6Vu.create({ id: 1, source, env: { BASE: base }, host: h });
    try {
      const info = await vu.info();
      expect(info.options).toMatchObject({ vus: 2, duration: "1s" });
      expect(info.functions).toContain("default");
      expect(info.metrics).toEqual({ waiting_time: { type: "trend", isTime: true }, my_hits: { type: "counter", isTime: false } });
      expect(h.store.get("users")).toBe(JSON.stringify([{ name: "ada" }, { name: "bob" }]));

      for (let i = 0; i < 2; i++) {
        const r = await vu.iterate("default", i, i, "default");
        expect(r.error).toBeUndefined();
        expect(r.checks).toEqual([
          [["api"], "status is 200", 1, 0],
          [["api"], "has two items", 1, 0],
          [["api"], "second id", 1, 0],
          [[], "form encoded", 1, 0],
          [[], "followed the redirect", 1, 0],
        ]);
        const names = r.samples.map((s) => s[0]);
        expect(names).toEqual(expect.arrayContaining(["checks", "waiting_time", "my_hits", "group_duration"]));
        expect(r.samples.find((s) => s[0] === "my_hits")![2]).toMatchObject({ user: i === 0 ? "ada" : "bob", group: "::api" });
      }
      expect(h.requests).toBe(6);
      expect(h.logs).toEqual(["info: done 1 0", "info: done 1 1"]);
    } finally {
      vu.dispose();
    }
  });

  it("reports a failed check and a thrown error as the iteration's result, not a crash", async () => {
    const source = `import http from 'k6/http'; import { check, fail } from 'k6';
export default function () {
  const r = http.get(__ENV.BASE + '/fail');
  check(r, { 'is 200': (x) => x.status === 200 });
  if (r.status !== 200) fail('service down: ' + r.status);
}`;
    const vu = await K6Vu.create({ id: 3, source, env: { BASE: base }, host: host() });
    try {
      const r = await vu.iterate("default", 0, 0, "default");
      expect(r.checks).toEqual([[[], "is 200", 0, 1]]);
      expect(r.error).toMatch(/service down: 503/);
      expect(r.error).toMatch(/script\.js:5/);
    } finally {
      vu.dispose();
    }
  });

  it("setup data reaches every iteration; teardown gets it too", async () => {
    const source = `export function setup() { return { token: 'abc', n: 2 }; }
export default function (data) { if (data.token !== 'abc') throw new Error('no data'); }
export function teardown(data) { if (data.n !== 2) throw new Error('teardown without data'); }`;
    const vu = await K6Vu.create({ id: 1, source, env: {}, host: host() });
    try {
      const setup = await vu.lifecycle("setup", undefined);
      expect(setup.error).toBeUndefined();
      await vu.setData(setup.value);
      expect((await vu.iterate("default", 0, 0, "default")).error).toBeUndefined();
      expect((await vu.lifecycle("teardown", setup.value)).error).toBeUndefined();
    } finally {
      vu.dispose();
    }
  });

  it("refuses what the engine does not have, naming it, and syntax errors with line and column", async () => {
    expect(await checkScript(`import { Client } from 'k6/net/grpc';\nexport default function () {}`)).toMatchObject({ module: "k6/net/grpc", message: expect.stringMatching(/k6\/net\/grpc.*not supported/) });
    expect(await checkScript(`import { randomIntBetween } from 'https://jslib.k6.io/k6-utils/1.4.0/index.js';`)).toMatchObject({ module: expect.stringContaining("jslib") });
    expect(await checkScript(`import x from './lib.js';`)).toMatchObject({ message: expect.stringMatching(/local files are not supported/) });
    expect(await checkScript(`export default function () {\n  let x = ;\n}`)).toMatchObject({ message: expect.stringMatching(/^SyntaxError/), line: 2, column: 11 });
    expect(await checkScript(`import http from 'k6/http';\nexport default function () { http.get('http://x'); }`)).toBeUndefined();
    await expect(K6Vu.create({ id: 1, source: `import ws from 'k6/ws';`, env: {}, host: host() })).rejects.toBeInstanceOf(ScriptError);
  });

  it("init code that calls http or sleep is an error, as in k6", async () => {
    const err = await K6Vu.create({ id: 1, source: `import http from 'k6/http';\nhttp.get('${base}/json');\nexport default function () {}`, env: {}, host: host() }).catch((e) => e);
    expect(err).toBeInstanceOf(ScriptError);
    expect((err as Error).message).toMatch(/init code failed: .*init context/);
  });

  it("the memory limit stops a script that hoards", async () => {
    const source = `export default function () { const a = []; for (;;) a.push(new Array(1e5).fill(1)); }`;
    const vu = await K6Vu.create({ id: 1, source, env: {}, host: host(), memoryMb: 16 });
    await expect(vu.iterate("default", 0, 0, "default")).rejects.toThrow(/memory|disposed/i);
    vu.dispose();
  });
});
