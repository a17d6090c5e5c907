#!/usr/bin/env node
// The `polymock` command (package.json "bin"). The code is TypeScript run
// through tsx, as `npm start` runs the server, with the project's tsconfig
// (its "@/" paths) wherever the command is started from.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
register({ tsconfig: path.join(root, "tsconfig.json") });
const { main } = await import(pathToFileURL(path.join(root, "server/cli/main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
