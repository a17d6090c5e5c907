import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const WATCHED = ["app", "components", "server", "public", "proxy.ts", "next.config.ts", "package.json", "postcss.config.mjs"];

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** True when there is no production build, or a source file is newer than it. */
export function buildIsStale(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return WATCHED.some((w) => newestMtime(path.join(root, w)) > built);
}
