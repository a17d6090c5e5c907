// `polymock run` options, Newman's names where Newman has one (--env is
// Newman's -e/--environment; --iterations is -n/--iteration-count), so a CI
// job moving from Newman changes the command name and little else.
import { parseArgs } from "node:util";
import { UsageError } from "./usage-error";

export const REPORTERS = ["cli", "junit", "json", "html"] as const;
export type Reporter = (typeof REPORTERS)[number];

export interface RunArgs {
  source: string;
  env?: string;
  envVars: Record<string, string>;
  globalVars: Record<string, string>;
  iterations?: number;
  data?: string;
  reporters: Reporter[];
  exports: Partial<Record<Exclude<Reporter, "cli">, string>>;
  bail: boolean;
  server?: string;
  token?: string;
  namespace?: string;
  timeoutRequest?: number;
  delayRequest: number;
  insecure: boolean;
  color: boolean;
}

export const USAGE = `Usage: polymock run <collection.json | collection id> [options]

Runs an API tester collection and prints a summary; exit code 0 when every
test passed, 1 when a test failed or a request could not be sent, 2 on a
usage or input error.

Local mode (a file, no server needed): a native collection export
(polymock-collection) or a Postman v2.0/v2.1 collection.
Server mode (--server): the argument is a collection id on that server.

Options:
  -e, --env <file|id>              environment: a file (native or Postman export), or an id in server mode
      --env-var <key=value>        set an environment variable (repeatable)
      --global-var <key=value>     set a global variable (repeatable)
  -n, --iterations <N>             iterations (default: one per data row, else 1)
  -d, --data <file>                iteration data: CSV (header row) or a JSON array
  -r, --reporters <list>           cli,junit,json,html (default: cli)
      --reporter-junit-export <p>  where the JUnit XML goes (default polymock/<name>-<time>.xml)
      --reporter-json-export <p>   where the JSON report goes
      --reporter-html-export <p>   where the HTML report goes
      --bail                       stop at the first failed test or request error
      --timeout-request <ms>       per-request timeout
      --delay-request <ms>         pause between requests
  -k, --insecure                   do not verify TLS certificates
      --server <url>               run on a polymock server (with --token or POLYMOCK_TOKEN)
      --token <token>              API token for --server
      --namespace <name>           namespace on the server (default: the token's, else sandbox)
      --no-color                   plain output
  -h, --help                       this text
`;

function positiveInt(name: string, text: string | undefined, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, not '${text}'`);
  return Number(text);
}

function pairs(name: string, list: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list ?? []) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new UsageError(`--${name} takes key=value, not '${item}'`);
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

export function parseRunArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): RunArgs | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        env: { type: "string", short: "e" },
        environment: { type: "string" },
        "env-var": { type: "string", multiple: true },
        "global-var": { type: "string", multiple: true },
        iterations: { type: "string", short: "n" },
        "iteration-count": { type: "string" },
        data: { type: "string", short: "d" },
        "iteration-data": { type: "string" },
        reporters: { type: "string", short: "r" },
        "reporter-junit-export": { type: "string" },
        "reporter-json-export": { type: "string" },
        "reporter-html-export": { type: "string" },
        bail: { type: "boolean", default: false },
        server: { type: "string" },
        token: { type: "string" },
        namespace: { type: "string" },
        "timeout-request": { type: "string" },
        "delay-request": { type: "string" },
        insecure: { type: "boolean", short: "k", default: false },
        "no-color": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values;
  if (v.help) return "help";
  if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length ? `one collection, not ${parsed.positionals.length} arguments: ${parsed.positionals.join(" ")}` : "which collection? Give a collection file (or an id with --server)");
  const reporters = (v.reporters ?? "cli").split(",").map((r) => r.trim()).filter(Boolean);
  const unknown = reporters.find((r) => !(REPORTERS as readonly string[]).includes(r));
  if (unknown) throw new UsageError(`unknown reporter '${unknown}' (known: ${REPORTERS.join(", ")})`);
  const token = v.token ?? env.POLYMOCK_TOKEN;
  if (v.server && !token) throw new UsageError("--server needs an API token: --token <token> or POLYMOCK_TOKEN");
  if (v.server) {
    try {
      const u = new URL(v.server);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    } catch {
      throw new UsageError(`--server must be an http(s) URL, not '${v.server}'`);
    }
  }
  return {
    source: parsed.positionals[0],
    env: v.env ?? v.environment,
    envVars: pairs("env-var", v["env-var"]),
    globalVars: pairs("global-var", v["global-var"]),
    iterations: positiveInt("iterations", v.iterations ?? v["iteration-count"], 1),
    data: v.data ?? v["iteration-data"],
    reporters: [...new Set(reporters)] as Reporter[],
    exports: { junit: v["reporter-junit-export"], json: v["reporter-json-export"], html: v["reporter-html-export"] },
    bail: v.bail,
    server: v.server?.replace(/\/+$/, ""),
    token,
    namespace: v.namespace,
    timeoutRequest: positiveInt("timeout-request", v["timeout-request"], 1),
    delayRequest: positiveInt("delay-request", v["delay-request"], 0) ?? 0,
    insecure: v.insecure,
    color: !v["no-color"] && !env.NO_COLOR && !!process.stdout.isTTY,
  };
}
