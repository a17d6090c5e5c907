// The web process's housekeeping of load runs: parts whose runner or process
// went silent are marked lost (and their runs finalised with what they
// reported). Off with POLYMOCK_SCHEDULER=off, like the API tester's scheduler.
import { logger } from "@/server/lib/logger";
import { sweepLostParts } from "./run-parts";

const SWEEP_EVERY_MS = 5_000;
let timer: NodeJS.Timeout | null = null;

export function startPerfMaintenance(): void {
  if (timer || process.env.POLYMOCK_SCHEDULER === "off") return;
  timer = setInterval(() => {
    sweepLostParts().catch((err) => logger().warn({ err }, "load-run sweep failed"));
  }, SWEEP_EVERY_MS);
  timer.unref();
}

export function stopPerfMaintenance(): void {
  if (timer) clearInterval(timer);
  timer = null;
}
