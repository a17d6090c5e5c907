// The file reporters (junit, json, html): the same writers the server's run
// export uses, over a TestRunDetail, written where --reporter-<name>-export
// says or, like Newman, under ./polymock/<collection>-<time>.<ext>.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { TestRunDetail } from "@/server/contracts/tester-run";
import { toHtmlReport } from "@/server/tester/reports/html";
import { toJsonReportText } from "@/server/tester/reports/json";
import { toJUnitXml } from "@/server/tester/reports/junit";
import type { Reporter, RunArgs } from "./args";
import { UsageError } from "./usage-error";

const WRITERS = {
  junit: { ext: "xml", write: toJUnitXml },
  json: { ext: "json", write: toJsonReportText },
  html: { ext: "html", write: toHtmlReport },
} as const;

function defaultPath(run: TestRunDetail, ext: string): string {
  const base = run.name.normalize("NFKD").replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "run";
  return path.join("polymock", `${base}-${new Date().toISOString().replace(/[:.]/g, "-")}.${ext}`);
}

/** Writes each file reporter's report; returns the paths written. */
export async function writeReports(run: TestRunDetail, args: Pick<RunArgs, "reporters" | "exports">): Promise<string[]> {
  const written: string[] = [];
  for (const name of args.reporters.filter((r): r is Exclude<Reporter, "cli"> => r !== "cli")) {
    const { ext, write } = WRITERS[name];
    const file = args.exports[name] ?? defaultPath(run, ext);
    try {
      await mkdir(path.dirname(path.resolve(file)), { recursive: true });
      await writeFile(file, write(run));
    } catch (err) {
      throw new UsageError(`cannot write the ${name} report to '${file}': ${(err as Error).message}`);
    }
    written.push(file);
  }
  return written;
}
