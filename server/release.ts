import { readFileSync } from "node:fs";
import path from "node:path";

let cached: string | undefined;

/** RELEASE_ID, else "<package version>+<Next build id>". */
export function releaseId(): string {
  if (cached) return cached;
  if (process.env.RELEASE_ID) return (cached = process.env.RELEASE_ID);
  let version = "0.0.0";
  let build = "dev";
  try {
    version = JSON.parse(readFileSync(path.join(process.cwd(), "package.json"), "utf8")).version;
  } catch {}
  try {
    build = readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
  } catch {}
  return (cached = `${version}+${build}`);
}

export function packageVersion(): string {
  return releaseId().split("+")[0];
}
