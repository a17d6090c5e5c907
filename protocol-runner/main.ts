// The protocol-runner process: serves gRPC, socket (TCP/UDP), SMTP, RabbitMQ, NATS and
// Kafka mocks — and, as each module is added to MODULES, other broker mocks — from the same
// database as the web process, with its listeners reconciled against the
// protocol-server rows (./reconciler.ts) and reported on its health port.
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { stubRecorder } from "@/server/serving/recorder";
import { runnerEnv } from "./env";
import { startGrpc } from "./grpc/server";
import { startHealthServer } from "./health-server";
import { startPluginListener } from "./plugins/plugin-listener";
import type { ProtocolModule } from "./module";
import { kafkaModule } from "./kafka/kafka-module";
import { natsModule } from "./nats/nats-module";
import { rabbitmqModule } from "./rabbitmq/rabbitmq-module";
import { startRunner } from "./reconciler";
import { smtpModule } from "./smtp/smtp-module";
import { socketModule } from "./socket/socket-module";

process.env.SERVICE_NAME ??= "protocol-runner";
const log = logger();

async function main() {
  const env = runnerEnv();
  await db().$queryRaw`SELECT 1`.catch(() => {
    throw new Error("database unreachable");
  });
  // One line per protocol module.
  const MODULES: ProtocolModule[] = [socketModule(env.HOST), smtpModule(env.HOST), rabbitmqModule(), natsModule(), kafkaModule()];
  const runner = await startRunner(MODULES);
  // gRPC listens on GRPC_PORT, not on protocol-server rows; its services follow the uploaded protos and mocks.
  const grpc = await startGrpc({ port: env.GRPC_PORT, log });
  // The plugin wire listener exists only with SERVICE_UNIFIED_PORT=1 (spec: default ports).
  const plugins = env.SERVICE_UNIFIED_PORT === "1" ? await startPluginListener({ port: env.PLUGIN_PORT, host: env.HOST }) : undefined;
  const health = await startHealthServer(env.RUNNER_HEALTH_PORT, runner.listeners, () => ({ grpc: grpc.state(), ...(plugins ? { plugins: plugins.state() } : {}) }));
  log.info({ port: env.RUNNER_HEALTH_PORT, listeners: runner.listeners().length }, "protocol-runner listening");

  const shutdown = () => {
    health.close();
    void grpc.stop();
    void plugins?.stop();
    setTimeout(() => process.exit(0), 5000).unref();
    void runner
      .stop()
      .then(() => stubRecorder().drain())
      .catch((err) => log.error({ err }, "protocol-runner shutdown"))
      .finally(() => void db().$disconnect().finally(() => process.exit(0)));
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((err) => {
  log.fatal({ err }, "protocol-runner failed to start");
  process.exit(1);
});
