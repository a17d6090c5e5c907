// A TCP protocol server: each connection may be greeted by a `connect` mock,
// then the stream is cut into messages by the server's framing and each one
// is answered in arrival order through ./exchange.ts.
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { TcpOptions } from "@/server/contracts/protocol-servers";
import { logger } from "@/server/lib/logger";
import { exchange, type Answer, type Peer } from "./exchange";
import { deframer, frame, FrameTooLarge } from "./framing";
import type { RunningListener } from "../listener-module";

export interface TcpListenerSpec {
  host: string;
  port: number;
  namespace: string;
  serverName: string;
  options: TcpOptions;
  /** Called when the listener fails after it started (it is then closed). */
  onFailure(err: unknown): void;
}

async function deliver(socket: net.Socket, framing: TcpOptions["framing"], answer: Answer, closed: AbortSignal) {
  for (const out of answer.frames) {
    if (out.delayMs > 0) {
      try {
        await sleep(out.delayMs, undefined, { signal: closed });
      } catch {
        return;
      }
    }
    if (socket.destroyed || !socket.writable) return;
    socket.write(frame(framing, out.text));
  }
  answer.afterSend?.();
}

function onConnection(socket: net.Socket, spec: TcpListenerSpec) {
  const { framing, idleMs } = spec.options;
  const peer: Peer = { protocol: "tcp", namespace: spec.namespace, serverName: spec.serverName, remote: `${socket.remoteAddress}:${socket.remotePort}` };
  const closed = new AbortController();
  const cutter = deframer(framing);
  let idle: NodeJS.Timeout | undefined;
  // Answers go out in the order their messages came, the greeting first.
  let chain: Promise<void> = Promise.resolve();
  const enqueue = (text: string | undefined) => {
    chain = chain.then(async () => {
      if (closed.signal.aborted) return;
      try {
        await deliver(socket, framing, await exchange(peer, text), closed.signal);
      } catch (err) {
        logger().error({ err, namespace: spec.namespace, serverName: spec.serverName }, "TCP message failed");
      }
    });
  };
  const flushRaw = () => {
    const rest = cutter.flush();
    if (rest) enqueue(rest.toString("utf8"));
  };
  socket.on("error", () => {});
  socket.on("close", () => {
    clearTimeout(idle);
    closed.abort();
  });
  socket.on("data", (chunk: Buffer) => {
    try {
      for (const message of cutter.push(chunk)) enqueue(message.toString("utf8"));
    } catch (err) {
      if (err instanceof FrameTooLarge) return void socket.destroy();
      throw err;
    }
    if (framing === "raw") {
      clearTimeout(idle);
      idle = setTimeout(flushRaw, idleMs);
    }
  });
  // A client that half-closes (nc -N) still gets the answers to what it sent, then the connection ends.
  socket.on("end", () => {
    clearTimeout(idle);
    if (framing === "raw") flushRaw();
    void chain.then(() => socket.end());
  });
  enqueue(undefined);
}

/** Starts listening; rejects with the listen error (port in use, …) so the caller reports it. */
export async function startTcpListener(spec: TcpListenerSpec): Promise<RunningListener> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    onConnection(socket, spec);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port: spec.port, host: spec.host, exclusive: true }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.on("error", (err) => spec.onFailure(err));
  return {
    async close() {
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await done;
    },
  };
}
