// `npm test`: the whole suite. Unit and database tests (vitest), then the
// production build if it is stale, then the browser and process tests
// (Playwright against the real server). Ends with one line
// "N passed, N failed[, N skipped]" and a non-zero exit on any failure.
// A stage that crashes or hangs counts as one failure and says so by name.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { buildIsStale } from "../server/runtime/build-check";
import { runStage, type StageResult, stageProblem } from "./run-stage";

const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });
process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const MINUTE = 60_000;
/** Hard limits per stage: a hang must end the run with a failure, not stall CI forever. */
const LIMITS = { vitest: 40 * MINUTE, build: 15 * MINUTE, playwright: 30 * MINUTE };

function run(cmd: string, args: string[], limitMs: number, env: Record<string, string> = {}): Promise<StageResult> {
  console.log(`\n$ ${[path.basename(cmd), ...args].join(" ")}`);
  return runStage(cmd, args, { limitMs, env });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const problems: string[] = [];
const onlyUnit = process.argv.includes("--unit");

/** One failure for a stage that ended badly without a failed test to show for it. */
function stageFailed(line: string) {
  totals.failed += 1;
  problems.push(line);
  console.error(line);
}

async function main() {
  // 1. vitest
  const vitestJson = path.join(results, "vitest.json");
  rmSync(vitestJson, { force: true });
  const vitest = await run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`], LIMITS.vitest);
  const vitestProblem = stageProblem("vitest", vitest, LIMITS.vitest);
  if (existsSync(vitestJson) && !vitestProblem) {
    const r = JSON.parse(readFileSync(vitestJson, "utf8"));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    // A file that failed to load, or an unhandled error, fails the run with no failed test inside.
    if (vitest.status !== 0 && r.numFailedTests === 0) {
      const suites = Math.max(1, r.numFailedTestSuites);
      totals.failed += suites;
      problems.push(`vitest failed: exit code ${vitest.status} with no failed test (${r.numFailedTestSuites} file(s) could not load, or an unhandled error; see above), counted as ${suites} failed`);
    }
  } else if (vitestProblem) stageFailed(vitestProblem);
  else if (vitest.status !== 0) stageFailed(`vitest crashed: exit code ${vitest.status} and no report written`);

  // 2. build + Playwright
  if (!onlyUnit) {
    let buildOk = true;
    if (buildIsStale(root)) {
      const build = await run(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], LIMITS.build, { NODE_ENV: "production" });
      const problem = stageProblem("next build", build, LIMITS.build);
      buildOk = build.status === 0 && !problem;
      if (!buildOk) stageFailed(`${problem ?? `next build failed: exit code ${build.status}`}; the browser tests did not run`);
    }
    if (buildOk) {
      const e2eJson = path.join(results, "e2e.json");
      rmSync(e2eJson, { force: true });
      const pw = await run(bin("playwright"), ["test"], LIMITS.playwright);
      const problem = stageProblem("playwright", pw, LIMITS.playwright);
      if (existsSync(e2eJson) && !problem) {
        const s = JSON.parse(readFileSync(e2eJson, "utf8")).stats;
        totals.passed += s.expected + s.flaky;
        totals.failed += s.unexpected;
        totals.skipped += s.skipped;
        if (pw.status !== 0 && s.unexpected === 0) stageFailed(`playwright failed: exit code ${pw.status} with no failed test (set-up, forbidden test.only, or a crash)`);
      } else if (problem) stageFailed(problem);
      else if (pw.status !== 0) stageFailed(`playwright crashed: exit code ${pw.status} and no report written`);
    }
  }

  if (problems.length) console.log(`\n${problems.join("\n")}`);
  console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
  process.exit(totals.failed > 0 ? 1 : 0);
}

void main();
