// `npm test`: the whole suite. Unit and database tests (vitest), then the
// production build if it is stale, then the browser and process tests
// (Playwright against the real server). Ends with one line
// "N passed, N failed[, N skipped]" and a non-zero exit on any failure.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { buildIsStale } from "../server/runtime/build-check";

const root = process.cwd();
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });
process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  console.log(`\n$ ${[path.basename(cmd), ...args].join(" ")}`);
  return spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const onlyUnit = process.argv.includes("--unit");

// 1. vitest
const vitestJson = path.join(results, "vitest.json");
rmSync(vitestJson, { force: true });
const vitestStatus = run(bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, "utf8"));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  // A suite that failed to load counts as a failure even with no test inside.
  if (vitestStatus !== 0 && r.numFailedTests === 0) totals.failed += Math.max(1, r.numFailedTestSuites);
} else if (vitestStatus !== 0) totals.failed += 1;

// 2. build + Playwright
if (!onlyUnit) {
  let buildOk = true;
  if (buildIsStale(root)) buildOk = run(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { NODE_ENV: "production" }) === 0;
  if (!buildOk) {
    totals.failed += 1;
    console.error("next build failed: the browser tests did not run");
  } else {
    const e2eJson = path.join(results, "e2e.json");
    rmSync(e2eJson, { force: true });
    const status = run(bin("playwright"), ["test"]);
    if (existsSync(e2eJson)) {
      const s = JSON.parse(readFileSync(e2eJson, "utf8")).stats;
      totals.passed += s.expected + s.flaky;
      totals.failed += s.unexpected;
      totals.skipped += s.skipped;
      if (status !== 0 && s.unexpected === 0) totals.failed += 1;
    } else if (status !== 0) totals.failed += 1;
  }
}

console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`);
process.exit(totals.failed > 0 ? 1 : 0);
