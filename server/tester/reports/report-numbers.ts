// Numbers as the HTML report shows them. Pass rate counts only tests that
// ran (skipped ones neither pass nor fail), so skipping half a suite does
// not halve the rate.
import type { RunCounts } from "@/server/contracts/tester-run";

export function passRate(counts: Pick<RunCounts, "passedTests" | "failedTests">): string {
  const ran = counts.passedTests + counts.failedTests;
  if (ran === 0) return "—";
  const rate = (counts.passedTests / ran) * 100;
  // 99.96 % must not read as 100 % while a test failed.
  const shown = counts.failedTests > 0 ? Math.min(Math.round(rate * 10) / 10, 99.9) : rate;
  return `${Number.isInteger(shown) ? shown : shown.toFixed(1)} %`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  return ms < 10 && !Number.isInteger(ms) ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return formatMs(ms);
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const total = Math.round(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min ${seconds} s`;
}
