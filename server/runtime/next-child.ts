// server.ts's side of the Next.js process (next-app.ts): starts it with the
// same Node flags (profiling), from the bundle or the sources like this one, waits until it listens on its socket,
// answers its requests for stub metrics, and stops it.
import { fork, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { serveMetricsTo } from "@/server/observability/metrics";
import { entryCommand, inheritedNodeFlags } from "./server-bundle";

export interface NextChild {
  socketPath: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not finished its requests in 12 s. */
  stop(): Promise<void>;
}

export function startNextChild(): Promise<NextChild> {
  const socketPath = path.join(os.tmpdir(), `polymock-next-${process.pid}.sock`);
  const { nodeArgs, file } = entryCommand(process.cwd(), "server/runtime/next-app.ts");
  const child = fork(file, [], {
    execArgv: [...inheritedNodeFlags(), ...nodeArgs],
    env: { ...process.env, POLYMOCK_NEXT_SOCKET: socketPath },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  serveMetricsTo(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 12_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) => reject(new Error(`the Next.js process exited before it was ready (${signal ?? code})`));
    child.once("exit", onExit);
    child.on("message", (m: { type?: string }) => {
      if (m?.type !== "ready") return;
      child.off("exit", onExit);
      resolve({ socketPath, process: child, stop });
    });
  });
}
