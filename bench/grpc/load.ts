// G1's load generator, in a process of its own: keeps CONCURRENCY unary calls
// in flight on one channel (HTTP/2 streams, as a gRPC client does) for the
// given seconds, and prints {rps, p50, p99, errors} as JSON. The request is
// encoded once and the reply is not decoded: the client's cost is the same
// for whichever server it loads.
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { G1_METHOD, G1_PROTO, G1_REQUEST } from "./proto";

const [address, secondsArg, concurrencyArg] = process.argv.slice(2);
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg);
const request = Buffer.from(protobuf.parse(G1_PROTO).root.lookupType("bench.HelloRequest").encode(G1_REQUEST).finish());
const client = new grpc.Client(address, grpc.credentials.createInsecure());
const pass = (b: Buffer) => b;

const latencies: number[] = [];
let errors = 0;
let firstError = "";
const end = performance.now() + seconds * 1000;

function loop(): Promise<void> {
  return new Promise((resolve) => {
    const next = () => {
      if (performance.now() >= end) return resolve();
      const t0 = performance.now();
      client.makeUnaryRequest(G1_METHOD, pass, pass, request, new grpc.Metadata(), (err) => {
        if (err) {
          errors++;
          firstError ||= err.message;
        } else latencies.push(performance.now() - t0);
        next();
      });
    };
    next();
  });
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, loop));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(2));
process.stdout.write(JSON.stringify({ rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors, firstError }) + "\n");
client.close();
