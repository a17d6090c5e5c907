// Lint rules, including the import direction of ARCHITECTURE.md:
// engine <- contracts <- db <- services <- serving <- adapters (app/api, server/api, transport, protocol-runner) <- UI.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const restrict = (patterns, message) => ({
  "no-restricted-imports": ["error", { patterns: patterns.map((group) => ({ group, message })) }],
});

const SERVER_OUTSIDE_ENGINE = ["db", "services", "serving", "http", "auth", "api", "lib", "transport", "observability", "runtime", "testing"].flatMap((d) => [`@/server/${d}`, `@/server/${d}/**`]);
const SERVER_FILES = ["@/server/env", "@/server/errors", "@/server/release"];

const NEXT_AND_REACT = ["next", "next/*", "react", "react-dom", "next-auth", "next-auth/*", "@trpc/*"];

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", "node_modules/**", ".worktrees/**", "server/db/generated/**", "data/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "server/tester/sandbox/fixtures/**", "**/__fixtures__/**/*.js"],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["server/engine/**"],
    rules: restrict(
      [[...NEXT_AND_REACT, "@prisma/*", "@/app/**", "@/components/**", ...SERVER_OUTSIDE_ENGINE, ...SERVER_FILES, "@/protocol-runner/**"]],
      "server/engine is pure: only server/contracts and its own modules (ARCHITECTURE.md, Layers).",
    ),
  },
  {
    files: ["server/contracts/**"],
    rules: restrict(
      [[...NEXT_AND_REACT, "@prisma/*", "@/app/**", "@/components/**", ...SERVER_OUTSIDE_ENGINE, ...SERVER_FILES, "@/server/engine", "@/server/engine/**", "node:*"]],
      "server/contracts is browser-safe zod schemas only.",
    ),
  },
  {
    files: ["server/services/**", "server/db/**", "server/auth/**", "server/http/**", "server/lib/**"],
    rules: restrict([[...NEXT_AND_REACT, "@/app/*", "@/components/*", "!@/app/api/**"]], "Domain code knows nothing of Next.js, React or the UI."),
  },
  {
    // server/auth is the core of authentication, below the services; the
    // next-auth integration (server/next-auth) is an adapter and may call them.
    files: ["server/auth/**"],
    ignores: ["**/*.test.ts"],
    rules: restrict([[...NEXT_AND_REACT, "@/app/*", "@/components/*", "@/server/services/*", "@/server/api/*", "@/server/http/*", "@/server/transport/*", "@/server/next-auth/*"]], "server/auth sits below the services (ARCHITECTURE.md, Layers)."),
  },
  {
    files: ["server/services/**"],
    ignores: ["**/*.test.ts"],
    rules: restrict([[...NEXT_AND_REACT, "@/app/*", "@/components/*", "@/server/api/*", "@/server/http/*", "@/server/transport/*", "@/server/serving/*"]], "Services are called by the serving core and adapters, never the reverse."),
  },
  {
    // The serving core (ARCHITECTURE.md, "Serving core") sits above the services and below every wire adapter.
    files: ["server/serving/**"],
    ignores: ["**/*.test.ts"],
    rules: restrict(
      [[...NEXT_AND_REACT, "node:http", "node:https", "node:net", "ws", "@/app/*", "@/app/**", "@/components/*", "@/components/**", "@/server/transport", "@/server/transport/**", "@/server/http", "@/server/http/**", "@/server/api", "@/server/api/**", "@/protocol-runner/**"]],
      "server/serving is protocol-neutral: engine, contracts, db, services, lib and observability only; no node:http, no Next (ARCHITECTURE.md, Layers).",
    ),
  },
  {
    // The tester's execution (ARCHITECTURE.md, Layers 6): no database, no services, no HTTP adapters; runner agents run it too.
    files: ["server/tester/**"],
    ignores: ["**/*.test.ts"],
    rules: restrict(
      [[...NEXT_AND_REACT, "@prisma/*", "@/app/*", "@/app/**", "@/components/*", "@/components/**", "@/server/db", "@/server/db/**", "@/server/services", "@/server/services/**", "@/server/http", "@/server/http/**", "@/server/api", "@/server/api/**", "@/server/transport", "@/server/transport/**", "@/server/serving", "@/server/serving/**"]],
      "server/tester is pure execution: contracts, engine tables, lib and its own modules; services call it (ARCHITECTURE.md, Layers).",
    ),
  },
  {
    files: ["app/api/**/route.ts"],
    rules: restrict([["@/server/db/*", "@prisma/*"]], "Route handlers are thin: call a service, never Prisma."),
  },
  {
    files: ["components/**", "app/**/*.tsx"],
    rules: restrict([["@/server/db/*", "@/server/services/*", "@prisma/*"]], "The UI gets data through tRPC, not by importing services or Prisma."),
  },

  {
    // Tests drive the real route handlers and may import any layer.
    files: ["**/*.test.ts", "e2e/**", "server/testing/**"],
    rules: { "no-restricted-imports": "off", "react-hooks/rules-of-hooks": "off" },
  },
];

export default config;
