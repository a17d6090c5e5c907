// Bodies as k6 handles them: compressed responses reach the script decoded
// (while data_received counts the bytes on the wire), and an object body is
// form-encoded with "+" for spaces.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoadTest } from "./engine";

let server: http.Server;
let base: string;
const forms: string[] = [];
const payload = JSON.stringify({ ok: true, items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: "item" })) });

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.url === "/form") {
        forms.push(Buffer.concat(chunks).toString());
        return void res.end("ok");
      }
      const coding = req.url!.slice(1);
      const body = coding === "gzip" ? gzipSync(payload) : coding === "deflate" ? deflateSync(payload) : coding === "br" ? brotliCompressSync(payload) : coding === "broken" ? Buffer.from("not gzip") : Buffer.from(payload);
      res.writeHead(200, { "content-type": "application/json", ...(coding !== "plain" ? { "content-encoding": coding === "broken" ? "gzip" : coding } : {}) });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("response and request bodies", () => {
  it("decodes gzip, deflate and br for the script; data_received counts the compressed bytes", async () => {
    const result = await runLoadTest({
      source: `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1 };
export default function () {
  for (const c of ['gzip', 'deflate', 'br', 'plain']) {
    const r = http.get(__ENV.BASE + '/' + c);
    check(r, { [c + ' decoded']: (x) => x.json('items.199.id') === 199 });
  }
  const bad = http.get(__ENV.BASE + '/broken');
  check(bad, { 'broken body says so': (x) => x.error.includes('not decodable as gzip') });
}`,
      env: { BASE: base },
    });
    expect(result.summary.root_group.checks.map((c) => [c.name, c.fails])).toEqual([
      ["gzip decoded", 0],
      ["deflate decoded", 0],
      ["br decoded", 0],
      ["plain decoded", 0],
      ["broken body says so", 0],
    ]);
    // Four compressed answers are far smaller than four plain ones would be.
    expect(result.summary.metrics.data_received.values.count).toBeLessThan(payload.length * 2.5);
  });

  it("form-encodes an object body with + for spaces", async () => {
    forms.length = 0;
    await runLoadTest({
      source: `import http from 'k6/http';
export const options = { iterations: 1 };
export default function () { http.post(__ENV.BASE + '/form', { name: 'Ada Lovelace', note: 'a&b=c' }); }`,
      env: { BASE: base },
    });
    expect(forms).toEqual(["name=Ada+Lovelace&note=a%26b%3Dc"]);
  });
});
