// The `polymock` command (bin/polymock.mjs loads this through tsx):
// `run`, Newman's `newman run` for API tester collections, and `runner`, a
// runner agent taking load-test parts from a server (./runner.ts).
import type { RunRequestResult } from "@/server/contracts/tester-run";
import { parseRunArgs, USAGE } from "./args";
import { runLocal, type RunReport } from "./local-run";
import { writeReports } from "./reports";
import { runOnServer, ServerError } from "./server-run";
import { folderLine, painter, passed, requestLines, summaryText } from "./summary";
import { EXIT, UsageError } from "./usage-error";

const out = (s: string) => process.stdout.write(s + "\n");
const err = (s: string) => process.stderr.write(s + "\n");

async function run(argv: string[]): Promise<number> {
  const args = parseRunArgs(argv);
  if (args === "help") {
    out(USAGE);
    return EXIT.passed;
  }
  const p = painter(args.color);
  const cli = args.reporters.includes("cli");
  const counter = { n: 0 };
  let previous: RunRequestResult | undefined;
  const print = (r: RunRequestResult) => {
    if (!cli) return;
    const folder = folderLine(r, previous, p);
    if (folder) out(folder);
    out(requestLines(r, counter, p).join("\n") + "\n");
    previous = r;
  };
  let report: RunReport;
  if (args.server) {
    // The server sends with each request's own settings; these two cannot reach it.
    if (args.insecure || args.timeoutRequest !== undefined) err(p.gray("warning: --insecure and --timeout-request apply to local runs; on a server each request's own settings are used"));
    if (cli) out(p.bold(`polymock\n\nrunning collection ${args.source} on ${args.server}\n`));
    report = await runOnServer(args);
    let iteration = -1;
    for (const r of report.run.results) {
      if (report.run.iterations > 1 && r.iteration !== iteration && cli) out(p.gray(`Iteration ${(iteration = r.iteration) + 1}/${report.run.iterations}\n`));
      print(r);
    }
  } else {
    if (cli) out(p.bold(`polymock\n`));
    report = await runLocal(
      args,
      print,
      (w) => err(p.gray(`warning: ${w}`)),
      (i, n) => cli && n > 1 && out(p.gray(`Iteration ${i + 1}/${n}\n`)),
    );
  }
  const { run: detail } = report;
  if (cli) {
    out(summaryText({ results: detail.results, iterations: detail.iterations, durationMs: detail.durationMs ?? 0, scripts: report.scripts }, p));
    if (detail.statusReason) out(p.gray(`\n${detail.statusReason}`));
  }
  for (const file of await writeReports(detail, args)) err(p.gray(`report written: ${file}`));
  return detail.status === "passed" && passed(detail.results) ? EXIT.passed : EXIT.failed;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "run") return await run(rest);
    // Loaded on demand: the load engine is not needed to run a collection.
    if (command === "runner") return await (await import("./runner")).runRunner(rest);
    if (command === undefined || command === "help" || command === "--help" || command === "-h") {
      out(USAGE);
      return command === undefined ? EXIT.usage : EXIT.passed;
    }
    throw new UsageError(`unknown command '${command}' (try: polymock run <collection.json>, or polymock runner --server <url> --token <token>)`);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`error: ${e.message}`);
      err(`run 'polymock ${command === "runner" ? "runner" : "run"} --help' for the options`);
      return EXIT.usage;
    }
    if (e instanceof ServerError) {
      err(`error: ${e.message}`);
      return e.status >= 400 && e.status < 500 ? EXIT.usage : EXIT.failed;
    }
    err(`error: ${(e as Error).stack ?? String(e)}`);
    return EXIT.failed;
  }
}
