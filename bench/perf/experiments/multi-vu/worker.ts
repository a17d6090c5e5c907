// A worker thread of the experiment: one IsolatePart with its own event loop
// and HTTP client, driven by messages from multi-vu.ts.
import { parentPort, workerData } from "node:worker_threads";
import { IsolatePart, type PartConfig } from "./part";

const port = parentPort!;
const part = new IsolatePart((workerData as { config: PartConfig }).config);

port.on("message", (m: { type: "prepare" | "start" | "stop" | "counts" | "close" }) => {
  switch (m.type) {
    case "prepare":
      void part.prepare().then(() => port.postMessage({ type: "prepared" }));
      break;
    case "start":
      part.start();
      break;
    case "counts":
      port.postMessage({ type: "counts", counts: { ...part.counts } });
      break;
    case "stop":
      part.stop();
      void part.ended.then(() => port.postMessage({ type: "ended" }));
      break;
    case "close":
      part.dispose();
      port.close();
      break;
  }
});
