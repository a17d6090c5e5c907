// A second process for the cross-process test: it serves one stub path
// through its own mock index and reports when the answer changes from 404.
// Usage: tsx server/testing/stub-probe.ts <namespace> <path>   (DATABASE_URL set)
import { serveStub } from "@/server/transport/stub-core";

const [namespace, path] = process.argv.slice(2);
const url = `/stubs/${namespace}${path}`;
const probe = () => serveStub({ method: "GET", url, headers: {}, rawBody: "", requestId: "probe-request" });

async function main() {
  await probe(); // builds this process's index and starts its LISTEN connection
  await new Promise((r) => setTimeout(r, 300)); // let LISTEN settle
  process.stdout.write("ready\n");
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const out = await probe();
    if (out.status === 200) {
      process.stdout.write(`served ${Date.now()}\n`);
      process.exit(0);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  process.stdout.write("timeout\n");
  process.exit(1);
}

void main();
