// A UDP protocol server: each datagram is one message, answered with one
// datagram per rendered frame back to its sender. UDP has no connection, so
// no `connect` event.
import dgram from "node:dgram";
import { isIP } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { logger } from "@/server/lib/logger";
import { exchange } from "./exchange";
import type { RunningListener } from "../listener-module";

export interface UdpListenerSpec {
  host: string;
  port: number;
  namespace: string;
  serverName: string;
  onFailure(err: unknown): void;
}

export async function startUdpListener(spec: UdpListenerSpec): Promise<RunningListener> {
  const socket = dgram.createSocket({ type: isIP(spec.host) === 6 ? "udp6" : "udp4", reuseAddr: false });
  const closed = new AbortController();
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind({ port: spec.port, address: spec.host, exclusive: true }, () => {
      socket.off("error", reject);
      resolve();
    });
  });
  socket.on("error", (err) => spec.onFailure(err));
  socket.on("message", (msg, rinfo) => {
    const peer = { protocol: "udp" as const, namespace: spec.namespace, serverName: spec.serverName, remote: `${rinfo.address}:${rinfo.port}` };
    void (async () => {
      const answer = await exchange(peer, msg.toString("utf8"));
      for (const out of answer.frames) {
        if (out.delayMs > 0) await sleep(out.delayMs, undefined, { signal: closed.signal });
        if (closed.signal.aborted) return;
        socket.send(Buffer.from(out.text, "utf8"), rinfo.port, rinfo.address);
      }
      answer.afterSend?.();
    })().catch((err) => {
      if (!closed.signal.aborted) logger().error({ err, namespace: spec.namespace, serverName: spec.serverName }, "UDP message failed");
    });
  });
  return {
    async close() {
      // A second close (the listener failed, then the runner stops) must not throw ERR_SOCKET_DGRAM_NOT_RUNNING.
      if (closed.signal.aborted) return;
      closed.abort();
      await new Promise<void>((resolve) => {
        try {
          socket.close(() => resolve());
        } catch {
          resolve();
        }
      });
    },
  };
}
