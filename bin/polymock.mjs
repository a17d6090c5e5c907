#!/usr/bin/env node
// The `polymock` command (package.json "bin"). The code is TypeScript run
// through tsx, as `npm start` runs the server; the "@/" imports resolve to
// this package wherever it is (a checkout, or node_modules after an install)
// and whatever the working directory.
import { register as registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
// Registered after tsx, so it runs first and hands tsx a file URL.
registerHooks("./alias-hooks.mjs", import.meta.url, { data: { root } });
const { main } = await import(pathToFileURL(path.join(root, "server/cli/main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
