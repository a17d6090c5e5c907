// G1's load from h2load (Debian's nghttp2-client) when it is installed: a C
// HTTP/2 load generator, to gRPC what wrk is to the HTTP workloads. The JS
// client (./load.ts) spends as much CPU per call as the server it loads, and
// on two cores that shows up as the server's latency: plain grpc-js measured
// a p99 of 12–14 ms under it. h2load sends the same gRPC frame (a 5-byte
// prefix and the encoded HelloRequest) on one connection with CONCURRENCY
// streams in flight, and writes each request's latency to a log, from which
// p50 and p99 are read. It checks the HTTP status only, not grpc-status, so
// the caller proves the server answers correctly with a grpc-js call first.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import protobuf from "protobufjs";
import { G1_METHOD, G1_PROTO, G1_REQUEST } from "./proto";

export interface GrpcLoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string;
}

export function hasH2load(): boolean {
  return spawnSync("h2load", ["--version"], { stdio: "ignore" }).status === 0;
}

function grpcFrame(): Buffer {
  const message = Buffer.from(protobuf.parse(G1_PROTO).root.lookupType("bench.HelloRequest").encode(G1_REQUEST).finish());
  const frame = Buffer.alloc(5 + message.length);
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  return frame;
}

export async function h2load(address: string, seconds: number, concurrency: number): Promise<GrpcLoadResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "polymock-h2load-"));
  try {
    const body = path.join(dir, "request.bin");
    const log = path.join(dir, "requests.log");
    writeFileSync(body, grpcFrame());
    const args = ["-D", String(seconds), "-c", "1", "-t", "1", "-m", String(concurrency), "-d", body, "-H", "content-type: application/grpc", "-H", "te: trailers", `--log-file=${log}`, `http://${address}${G1_METHOD}`];
    const child = spawn("h2load", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const code = await new Promise((r) => child.once("close", r));
    if (code !== 0) throw new Error(`h2load exited ${code}: ${out.slice(-500)}`);
    // Each line: start time (µs), HTTP status, latency (µs).
    const lines = readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
    const ok: number[] = [];
    let errors = 0;
    for (const line of lines) {
      const [, status, latency] = line.split("\t");
      if (status === "200") ok.push(Number(latency) / 1000);
      else errors++;
    }
    const failed = /(\d+) failed, (\d+) errored, (\d+) timeout/.exec(out);
    if (failed) errors += Number(failed[1]) + Number(failed[2]) + Number(failed[3]);
    ok.sort((a, b) => a - b);
    const at = (q: number) => Number((ok[Math.min(ok.length - 1, Math.floor(q * ok.length))] ?? NaN).toFixed(2));
    return { rps: ok.length / seconds, p50: at(0.5), p99: at(0.99), errors, firstError: errors ? out.split("\n").find((l) => /fail|error/i.test(l)) ?? "h2load reported failures" : "" };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
