import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoadTest } from "./engine";
import { CHANNEL_BYTES } from "./isolate/channel";

let server: http.Server;
let base: string;
// Over the channel's buffer (two bytes a character), with characters beyond Latin-1.
const big = JSON.stringify({ items: Array.from({ length: CHANNEL_BYTES / 8 }, (_, i) => `ü${i}€`) });

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(req.url === "/big" ? big : '{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => server.close());

describe("a VU's channel to the host", () => {
  it("carries an answer larger than its buffer whole, and a small one after it", async () => {
    expect(big.length * 2).toBeGreaterThan(CHANNEL_BYTES);
    const r = await runLoadTest({
      source: `import http from 'k6/http'; import { check } from 'k6';
export const options = { iterations: 2 };
export default function () {
  const b = http.get(__ENV.BASE + '/big');
  const s = http.get(__ENV.BASE + '/small');
  check(b, { 'whole': (x) => x.body.length === ${big.length} && x.json('items.#') === ${CHANNEL_BYTES / 8} && x.json('items.7') === 'ü7€' });
  check(s, { 'small after big': (x) => x.json('ok') === true });
}`,
      env: { BASE: base },
    });
    expect(r.status).toBe("passed");
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 4, fails: 0 });
  });

  it("a stop ends a VU's sleep at once", async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 500);
    const r = await runLoadTest({ source: `import { sleep } from 'k6';\nexport const options = { vus: 2, duration: '60s' };\nexport default function () { sleep(30); }`, signal: ctl.signal });
    expect(r.status).toBe("stopped");
    expect(r.durationMs).toBeLessThan(20_000);
    expect(r.summary.metrics.iterations.values.count).toBe(2);
  });
});
