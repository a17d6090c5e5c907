// A stage of `npm test` that hangs, crashes or cannot start is reported as
// such (and a hung stage is killed with everything it started), so the
// summary can name it instead of counting a vague "1 failed".
import { readFileSync, rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runStage, stageProblem } from "./run-stage";

const node = process.execPath;
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("runStage", () => {
  it("reports a normal exit, failed or not, as no problem", async () => {
    const ok = await runStage(node, ["-e", "process.exit(0)"], { limitMs: 60_000, stdio: "ignore" });
    const failed = await runStage(node, ["-e", "process.exit(3)"], { limitMs: 60_000, stdio: "ignore" });
    expect(ok).toMatchObject({ status: 0, timedOut: false });
    expect(failed).toMatchObject({ status: 3, timedOut: false });
    expect(stageProblem("vitest", failed, 60_000)).toBeNull();
  });

  it("names a crash by its signal", async () => {
    const r = await runStage(node, ["-e", "process.kill(process.pid, 'SIGKILL')"], { limitMs: 60_000, stdio: "ignore" });
    expect(stageProblem("vitest", r, 60_000)).toBe("vitest crashed: killed by SIGKILL");
  });

  it("names a command that cannot start", async () => {
    const r = await runStage("/nonexistent/vitest", [], { limitMs: 60_000, stdio: "ignore" });
    expect(stageProblem("vitest", r, 60_000)).toMatch(/^vitest crashed: could not start vitest/);
  });

  it("kills a hung stage with every process it started, and says it timed out", async () => {
    // The stage starts a grandchild that ignores SIGTERM, then hangs.
    const script = `
      const { spawn } = require("node:child_process");
      const g = spawn(process.execPath, ["-e", "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: "ignore" });
      require("node:fs").writeFileSync(process.env.PID_FILE, String(g.pid));
      setInterval(() => {}, 1000);`;
    const pidFile = `${process.env.TMPDIR ?? "/tmp"}/run-stage-${process.pid}.pid`;
    const r = await runStage(node, ["-e", script], { limitMs: 1_000, graceMs: 200, stdio: "ignore", env: { PID_FILE: pidFile } });
    expect(r.timedOut).toBe(true);
    expect(stageProblem("playwright", r, 30 * 60_000)).toBe("playwright timed out: killed after 30 minutes");
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    rmSync(pidFile, { force: true });
    for (let i = 0; i < 50 && alive(grandchild); i++) await new Promise((res) => setTimeout(res, 100));
    expect(alive(grandchild)).toBe(false);
  });
});
