import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    // Every node_modules (nested ones too: bench/.peers holds WireMock's and
    // Mockoon's installs, whose dependencies ship their own *.test.ts files).
    exclude: ["**/node_modules/**", "bench/.peers/**", "**/.worktrees/**", "e2e/**", ".next/**", "data/**"],
    globalSetup: ["server/testing/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { APP_SECRET: "test-secret-not-for-production", RATE_LIMIT_DISABLED: "1", LOG_LEVEL: "silent", PUBLIC_URL: "http://localhost:5770" },
  },
});
