// T1 collection run: 1,000 requests against a local stub, each with one
// Postman test script, run by the API tester's own runner (the code a
// collection run and a runner agent use). Prints requests/s and what the
// script sandbox adds per request at p50: the same run without the script,
// interleaved, gives the baseline. Per-request time is the gap between
// consecutive results, so it includes the send, the script and the runner.
import { blankRequest } from "../../server/contracts/tester-request";
import { runCollections, type RunCollection } from "../../server/tester/collection-runner";
import { emptyScopes } from "../../server/tester/scopes";
import { median } from "../common";

const REQUESTS = Number(process.env.BENCH_T1_REQUESTS ?? 1000);
const SCRIPT = `pm.test("status is 200", () => pm.response.to.have.status(200));\npm.test("body", () => pm.expect(pm.response.json()).to.have.property("hello"));`;

function collection(url: string, withScript: boolean): RunCollection {
  const definition = blankRequest({ url, auth: { type: "none" }, scripts: withScript ? { test: SCRIPT } : {} });
  return { id: "t1", name: "T1", variables: {}, folders: [], requests: [{ id: "r1", name: "hello", folderId: null, definition }] };
}

async function once(url: string, withScript: boolean) {
  const gaps: number[] = [];
  let last = performance.now();
  const started = last;
  const outcome = await runCollections([collection(url, withScript)], emptyScopes(), { iterations: REQUESTS }, (e) => {
    if (e.type !== "result") return;
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  });
  const seconds = (performance.now() - started) / 1000;
  const failed = outcome.results.filter((r) => r.status !== "passed").length;
  if (failed) throw new Error(`T1: ${failed} of ${outcome.results.length} requests did not pass: ${outcome.results.find((r) => r.status !== "passed")?.error ?? "a test failed"}`);
  gaps.sort((a, b) => a - b);
  return { rps: REQUESTS / seconds, p50: median(gaps) };
}

export async function benchT1(url: string, rounds: number): Promise<string> {
  await once(url, true); // warm: JIT, the sandbox's bundle and code cache, the connection
  const withScript: { rps: number; p50: number }[] = [];
  const without: { rps: number; p50: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    withScript.push(await once(url, true));
    without.push(await once(url, false));
  }
  const rps = median(withScript.map((r) => r.rps));
  const bare = median(without.map((r) => r.rps));
  const overhead = median(withScript.map((r) => r.p50)) - median(without.map((r) => r.p50));
  return `${"T1 collection run".padEnd(22)} ${(rps / 1000).toFixed(2)}k req/s with a test script each (${REQUESTS} requests; ${(bare / 1000).toFixed(2)}k without scripts) | sandbox adds ${overhead.toFixed(2)} ms per script at p50 (target ≤ 1 ms)`;
}
