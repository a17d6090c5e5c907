// A worker thread of a load run: one VuGroup (its share of the VUs, its own
// event loop and HTTP client), driven by the engine's messages (worker-pool.ts
// has the protocol). Loaded as a bundle esbuild makes at run time, so it runs
// the same under tsx, vitest and the bundled server.
import { parentPort, workerData } from "node:worker_threads";
import { type GroupConfig, VuGroup } from "./vu-group";
import type { FromWorker, ToWorker } from "./worker-pool";

const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);
const group = new VuGroup((workerData as { config: GroupConfig }).config, (why) => post({ type: "abort", why }));

function failed(id: number, e: unknown): FromWorker {
  const err = e as Error & { location?: unknown };
  return { type: "failed", id, error: { name: err?.name ?? "Error", message: err?.message ?? String(e), location: err?.location } };
}

port.on("message", (m: ToWorker) => {
  switch (m.type) {
    case "prepare":
      group.prepare().then(
        () => post({ type: "done", id: m.id }),
        (e: unknown) => post(failed(m.id, e)),
      );
      break;
    case "run":
      group.run(m.startAt).then(
        () => post({ type: "done", id: m.id }),
        (e: unknown) => post(failed(m.id, e)),
      );
      break;
    case "tick":
      post({ type: "tick", id: m.id, tick: group.tick(), snapshot: m.snapshot ? group.snapshot() : undefined });
      break;
    case "stop":
      group.stop();
      break;
    case "finish":
      post({ type: "finished", id: m.id, outcome: group.outcome(), snapshot: group.snapshot() });
      break;
    case "close":
      // Not terminate(): isolated-vm aborts the process when a VU's call comes back into a terminating thread.
      void group.dispose().finally(() => port.close());
      break;
  }
});
