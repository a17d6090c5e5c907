// A module resolve hook for the `polymock` command: "@/x" is the package's
// own x (tsconfig's paths). tsx applies those paths only outside
// node_modules, and an installed polymock lives inside it.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

let root = "";
const EXTENSIONS = ["", ".ts", ".tsx", ".mts", ".js", ".mjs", "/index.ts", "/index.js"];

export function initialize(data) {
  root = data.root;
}

export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith("@/")) {
    const base = path.join(root, specifier.slice(2));
    const file = EXTENSIONS.map((ext) => base + ext).find((p) => existsSync(p) && statSync(p).isFile());
    if (file) return nextResolve(pathToFileURL(file).href, context);
  }
  return nextResolve(specifier, context);
}
