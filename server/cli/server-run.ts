// `polymock run <id> --server URL --token T`: the run happens on the server
// (POST /api/v1/api-tester/collections/{id}/execute, authenticated with the
// API token as a Bearer credential) and is stored there like any run from
// the UI; the CLI prints and writes reports from the run it answers.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { TestRunDetail } from "@/server/contracts/tester-run";
import type { RunArgs } from "./args";
import { loadEnvironmentFile } from "./environment-file";
import type { RunReport } from "./local-run";
import { UsageError } from "./usage-error";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A server that answered but refused: 4xx is the caller's input (exit 2), anything else a failed run (exit 1). */
export class ServerError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export async function runOnServer(args: RunArgs): Promise<RunReport> {
  if (!UUID.test(args.source)) {
    throw new UsageError(existsSync(args.source) ? `with --server the argument is a collection id on the server; '${args.source}' is a file (drop --server to run it locally)` : `'${args.source}' is not a collection id`);
  }
  const body: Record<string, unknown> = { bail: args.bail, delayMs: args.delayRequest };
  if (args.iterations !== undefined) body.iterations = args.iterations;
  if (args.data) {
    try {
      body.data = await readFile(args.data, "utf8");
    } catch (err) {
      throw new UsageError(`cannot read data file '${args.data}': ${(err as Error).message}`);
    }
  }
  let environmentVariables: Record<string, string> = {};
  if (args.env && UUID.test(args.env)) body.environmentId = args.env;
  else if (args.env) environmentVariables = await loadEnvironmentFile(args.env);
  environmentVariables = { ...environmentVariables, ...args.envVars };
  if (Object.keys(environmentVariables).length) body.environmentVariables = environmentVariables;
  if (args.globalVars && Object.keys(args.globalVars).length) throw new UsageError("--global-var is for local runs; on a server use --env-var");

  const url = new URL(`${args.server}/api/v1/api-tester/collections/${encodeURIComponent(args.source)}/execute`);
  if (args.namespace) url.searchParams.set("namespace", args.namespace);
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${args.token}`, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(body) });
  } catch (err) {
    throw new ServerError(`cannot reach ${args.server}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`, 0);
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ServerError(`${args.server} answered ${res.status} with something that is not JSON: ${text.slice(0, 200)}`, res.status);
  }
  if (!res.ok) {
    const envelope = json as { error?: string; code?: string };
    throw new ServerError(`the server refused the run (${res.status} ${envelope.code ?? ""}): ${envelope.error ?? text.slice(0, 300)}`, res.status);
  }
  const parsed = TestRunDetail.safeParse(json);
  if (!parsed.success) throw new ServerError(`${args.server} answered something that is not a test run: ${parsed.error.issues[0].message}`, res.status);
  return { run: parsed.data };
}
