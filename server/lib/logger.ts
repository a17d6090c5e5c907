import pino from "pino";

const g = globalThis as unknown as { __polymockLogger?: pino.Logger };

export function logger(): pino.Logger {
  g.__polymockLogger ??= pino({
    level: process.env.LOG_LEVEL ?? "info",
    base: { service: process.env.SERVICE_NAME ?? "web" },
    redact: ["password", "*.password", "token", "*.token", "secret", "*.secret"],
  });
  return g.__polymockLogger;
}
