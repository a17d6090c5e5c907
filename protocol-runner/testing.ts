// Shared by the runner's tests: free ports and polling for what the runner
// does asynchronously (it answers NOTIFYs on its own schedule), and gRPC
// client streams read to their end.
import dgram from "node:dgram";
import net, { type AddressInfo } from "node:net";
import type * as grpc from "@grpc/grpc-js";

/** A port nothing listens on right now (TCP by default, or UDP). */
export async function freePort(kind: "tcp" | "udp" = "tcp"): Promise<number> {
  if (kind === "udp") {
    const s = dgram.createSocket("udp4");
    await new Promise<void>((r) => s.bind(0, "127.0.0.1", r));
    const port = s.address().port;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Polls until `check` returns a value (no fixed waits); a check that throws counts as not yet. */
export async function until<T>(check: () => Promise<T | undefined | false>, what: string, limitMs = 15_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A TCP proxy from `port` to a broker on 127.0.0.1:`target`, which the test can cut. */
export async function tcpProxy(port: number, target: number) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const srv = net.createServer((inbound) => {
    connections++;
    const outbound = net.connect(target, "127.0.0.1");
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on("error", () => {});
      s.on("close", () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on("close", () => outbound.destroy());
    outbound.on("close", () => inbound.destroy());
  });
  await new Promise<void>((r) => srv.listen(port, "127.0.0.1", r));
  return {
    connections: () => connections,
    /** Cuts every connection through it (the listener stays). */
    cut() {
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => srv.close(r));
    },
  };
}

/** Everything a gRPC client stream delivers until it ends, or fails with the error it ended on. */
export function collectStream<T = any>(stream: grpc.ClientReadableStream<T>): Promise<{ messages: T[]; err?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const messages: T[] = [];
    stream.on("data", (m: T) => messages.push(m));
    stream.on("error", (err: grpc.ServiceError) => resolve({ messages, err }));
    stream.on("end", () => resolve({ messages }));
  });
}
