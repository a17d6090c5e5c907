// The load shape asked for (vus, duration, iterations, stages, rps,
// thresholds) as the k6 `options` a generated script exports. Without a
// shape: 10 VUs for 30 seconds (the spec's default for execute-perf). A
// target `rps` becomes a constant-arrival-rate scenario: an iteration sends
// every request once, so the rate is `rps` iterations per N seconds for N
// requests an iteration, which is `rps` requests a second.
import type { PerfLoadOptions } from "@/server/contracts/perf-script-endpoints";

export const DEFAULT_VUS = 10;
export const DEFAULT_DURATION = "30s";

export function k6OptionsFor(o: PerfLoadOptions | undefined, requestsPerIteration: number): Record<string, unknown> {
  const vus = o?.vus ?? DEFAULT_VUS;
  const options: Record<string, unknown> = {};
  if (o?.stages) options.stages = o.stages.map((s) => ({ duration: s.duration, target: s.target }));
  else if (o?.rps) {
    const n = Math.max(1, requestsPerIteration);
    options.scenarios = {
      default: {
        executor: "constant-arrival-rate",
        rate: o.rps,
        timeUnit: `${n}s`,
        duration: o.duration ?? DEFAULT_DURATION,
        preAllocatedVUs: vus,
        maxVUs: vus,
      },
    };
  } else if (o?.iterations !== undefined) {
    options.vus = Math.min(vus, o.iterations);
    options.iterations = o.iterations;
  } else {
    options.vus = vus;
    options.duration = o?.duration ?? DEFAULT_DURATION;
  }
  if (o?.thresholds && Object.keys(o.thresholds).length) options.thresholds = o.thresholds;
  return options;
}
