// `polymock runner --server URL --token T`: a runner agent on this machine.
// It registers with the server under an integration token and runs parts of
// load runs until Ctrl-C (a second Ctrl-C exits at once). The token may
// also come from POLYMOCK_TOKEN, so it need not show in the process list.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { RunnerAgent } from "@/server/runner-agent/agent";
import { EXIT, UsageError } from "./usage-error";

export const RUNNER_USAGE = `Usage: polymock runner --server <url> --token <integration token> [options]

Runs load-test parts queued on the server (a runner agent). Create the token
with POST /api/v1/integrations (instance-wide, admins) or
/api/v1/integrations/namespace/<ns> (one namespace); it needs 'write'.

Options:
  --server <url>        the polymock server (or POLYMOCK_SERVER)
  --token <token>       integration token (or POLYMOCK_TOKEN)
  --capacity <vus>      VUs this machine runs at once (default 200)
  --name <name>         unique per token (default: the host name)
  --label <label>       a label shown with the runner (repeatable)
  -h, --help            this help`;

export interface RunnerArgs {
  server: string;
  token: string;
  capacityVus: number;
  name: string;
  labels: string[];
}

export function parseRunnerArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): RunnerArgs | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        server: { type: "string" },
        token: { type: "string" },
        capacity: { type: "string" },
        name: { type: "string" },
        label: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  if (v.help) return "help";
  const server = v.server ?? env.POLYMOCK_SERVER;
  const token = v.token ?? env.POLYMOCK_TOKEN;
  if (!server) throw new UsageError("--server <url> is required");
  if (!/^https?:\/\//.test(server)) throw new UsageError(`--server must be an http(s) URL, not '${server}'`);
  if (!token) throw new UsageError("--token <integration token> is required (or POLYMOCK_TOKEN)");
  const capacityVus = v.capacity === undefined ? 200 : Number(v.capacity);
  if (!Number.isInteger(capacityVus) || capacityVus < 1 || capacityVus > 100_000) throw new UsageError(`--capacity must be a whole number of VUs from 1 to 100000, not '${v.capacity}'`);
  return { server, token, capacityVus, name: v.name ?? os.hostname(), labels: v.label ?? [] };
}

function version(): string {
  try {
    return JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")).version;
  } catch {
    return "";
  }
}

const STOP_GRACE_MS = 30_000;
const EXIT_GRACE_MS = 3_000;

export async function runRunner(argv: string[]): Promise<number> {
  const args = parseRunnerArgs(argv);
  if (args === "help") {
    process.stdout.write(RUNNER_USAGE + "\n");
    return EXIT.passed;
  }
  const agent = new RunnerAgent({ server: args.server, token: args.token, name: args.name, capacityVus: args.capacityVus, labels: args.labels, version: version() });
  let signals = 0;
  const onSignal = () => {
    // The first stops gracefully (running parts end and report); a second exits now.
    if (++signals > 1) process.exit(EXIT.failed);
    // A graceful stop that cannot finish (a server that no longer answers) must not keep the agent up.
    setTimeout(() => process.exit(EXIT.failed), STOP_GRACE_MS).unref();
    void agent.stop();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    await agent.start();
    await agent.finished();
    // Handles a load run leaves behind (an isolate's worker, a keep-alive socket) must not keep a stopped agent alive.
    setTimeout(() => process.exit(EXIT.passed), EXIT_GRACE_MS).unref();
    return EXIT.passed;
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return EXIT.failed;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
