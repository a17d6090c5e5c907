// A real Kafka-protocol broker for tests: no Kafka can be installed here, but
// Debian's kcat links librdkafka, whose built-in mock cluster listens on
// 127.0.0.1 and speaks enough of the protocol for kafkajs producers and
// consumer groups. kcat is kept running as a consumer because the cluster
// lives only as long as the librdkafka client that created it.
import { spawn } from "node:child_process";

export interface KafkaMockCluster {
  /** Bootstrap address, e.g. "127.0.0.1:40123". */
  brokers: string;
  stop(): Promise<void>;
}

const PORT_LINE = /replaced with (127\.0\.0\.1:\d+)/;

export async function startKafkaMockCluster(limitMs = 10_000): Promise<KafkaMockCluster> {
  const child = spawn("kcat", ["-b", "localhost", "-X", "test.mock.num.brokers=1", "-C", "-t", "warmup", "-q"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A test process that dies without stop() must not leave kcat behind.
  const orphan = () => child.kill("SIGKILL");
  process.once("exit", orphan);
  void exited.then(() => process.off("exit", orphan));
  const brokers = await new Promise<string>((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => fail(new Error(`kcat printed no mock-cluster address: ${stderr.slice(0, 500)}`)), limitMs);
    function fail(err: Error) {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(err);
    }
    child.once("error", (err) => fail(new Error(`cannot start kcat (is it installed?): ${err.message}`)));
    const early = (code: number | null) => fail(new Error(`kcat exited (${code}) before the mock cluster was up: ${stderr.slice(0, 500)}`));
    child.once("exit", early);
    child.stderr.setEncoding("utf8");
    let up = false;
    child.stderr.on("data", (chunk: string) => {
      if (up) return;
      stderr += chunk;
      const m = PORT_LINE.exec(stderr);
      if (m) {
        up = true;
        clearTimeout(timer);
        // Keep draining so a chatty kcat never blocks on a full pipe.
        // Only this listener: `exited` (stop waits on it) must keep its own.
        child.off("exit", early);
        stderr = "";
        resolve(m[1]);
      }
    });
  });
  return {
    brokers,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(killer);
    },
  };
}
