// What the bench's workloads share: ports, child processes, CPU accounting,
// the rounds and their summary (median with min–max), the row formatting, and
// the protocol runner started as `npm start` starts it.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import { entryCommand } from "../server/runtime/server-bundle";

export const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
// 10 connections: the default of both wrk and autocannon.
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

export type Api = (method: string, p: string, body?: unknown) => Promise<unknown>;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function waitForLine(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes(text)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

export /** CPU seconds (user + system) a process has used: per-request CPU is steadier than req/s on a busy machine. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  cpuUs: number;
}

export interface Summary {
  rps: number;
  rpsMin: number;
  rpsMax: number;
  p50: number;
  p99: number;
  cpuUs: number;
  non2xx: number;
  errors: number;
}

/** Rounds of interleaved runs; the median is reported, with min–max. Fewer than 3 would leave no median worth the name. */
export const ROUNDS_USED = Math.max(3, ROUNDS);

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarise(runs: Measured[]): Summary {
  const rps = runs.map((r) => r.rps);
  return {
    rps: median(rps),
    rpsMin: Math.min(...rps),
    rpsMax: Math.max(...rps),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    cpuUs: median(runs.map((r) => r.cpuUs)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

export const k = (rps: number) => `${(rps / 1000).toFixed(1)}k`;
/** "46.9k req/s (45.1k–47.3k)": the median and the range of the rounds. */
export const rpsText = (s: Summary) => `${k(s.rps).padStart(6)} req/s (${k(s.rpsMin)}–${k(s.rpsMax)})`;
export const troubleText = (s: Summary) => (s.non2xx || s.errors ? `  (non-2xx ${s.non2xx}, errors ${s.errors})` : "");

/** The protocol runner as `npm start` runs it (bundled entry), with extra environment; resolves once spawned. */
export async function startRunner(root: string, env: NodeJS.ProcessEnv, nodeFlags: string[], extra: Record<string, string> = {}): Promise<ChildProcess> {
  const cmd = entryCommand(root, "protocol-runner/main.ts", true);
  return spawn(process.execPath, [...nodeFlags, ...cmd.nodeArgs, cmd.file], {
    env: { ...env, GRPC_PORT: String(await freePort()), RUNNER_HEALTH_PORT: String(await freePort()), SERVICE_NAME: "protocol-runner", ...extra },
    stdio: ["ignore", "inherit", "inherit"],
  });
}
