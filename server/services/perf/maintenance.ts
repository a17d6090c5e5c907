// The web process's housekeeping of load runs: parts whose runner or process
// went silent are marked lost (and their runs finalised with what they
// reported), and queued parts that nobody will ever start are ended or put
// back in the queue (stranded-parts.ts). Off with POLYMOCK_SCHEDULER=off,
// like the API tester's scheduler.
import { logger } from "@/server/lib/logger";
import { sweepLostParts } from "./run-parts";
import { sweepStrandedParts } from "./stranded-parts";

const LOST_SWEEP_EVERY_MS = 5_000;
// Asks the job queue about every queued part: less often (its own thresholds are a minute and more).
const STRANDED_SWEEP_EVERY_MS = 30_000;
let timers: NodeJS.Timeout[] = [];

export function startPerfMaintenance(): void {
  if (timers.length || process.env.POLYMOCK_SCHEDULER === "off") return;
  timers = [
    setInterval(() => {
      sweepLostParts().catch((err) => logger().warn({ err }, "load-run sweep failed"));
    }, LOST_SWEEP_EVERY_MS),
    setInterval(() => {
      sweepStrandedParts().catch((err) => logger().warn({ err }, "queued-parts sweep failed"));
    }, STRANDED_SWEEP_EVERY_MS),
  ];
  for (const t of timers) t.unref();
}

export function stopPerfMaintenance(): void {
  for (const t of timers) clearInterval(t);
  timers = [];
}
