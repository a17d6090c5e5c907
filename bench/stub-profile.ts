// `node --cpu-prof --import tsx bench/stub-profile.ts W1,W7 [seconds]`: the
// stub path alone (handleStubRequest in a plain node:http server, the real
// recorder, a throwaway database) under wrk, for CPU profiles of the serving
// code without a Next.js build or the launcher's processes. Prints req/s per
// workload; the figures are for profiling, not the bench's ratios (no raw
// yardstick, no front process).
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { STUB_WORKLOADS, stubWorkloadDatabase } from "./stub-workloads";

const which = (process.argv[2] ?? "W1,W4,W6,W7").split(",");
const seconds = process.argv[3] ?? "8";
const { dir, drop } = await stubWorkloadDatabase();
const { handleStubRequest } = await import("../server/transport/http-stub");

const server = http.createServer((req, res) => void handleStubRequest(req, res, "profile"));
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stubs/pf`;
const targets: Record<string, string[]> = Object.fromEntries(
  Object.entries(STUB_WORKLOADS).map(([w, { path: p, lua }]) => [w, [...(lua ? ["-s", path.join(dir, lua)] : []), `${base}${p}`]]),
);

for (const w of which) {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn("wrk", ["-t1", "-c10", `-d${seconds}s`, ...targets[w]]);
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("close", () => resolve(text));
  });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const non2xx = /Non-2xx[^\d]+(\d+)/.exec(out)?.[1] ?? "0";
  console.log(`${w}: ${rps} req/s, ${non2xx} non-2xx`);
}
server.close();
await drop();
process.exit(0);
