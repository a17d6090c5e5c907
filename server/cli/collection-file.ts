// A collection file for a local run: the native export (polymock-collection)
// or a Postman v2.0/v2.1 collection (converted to the native document by the
// same converter the import endpoint uses), flattened into the runner's
// RunCollection with ids of our own (a file has none).
import { readFile } from "node:fs/promises";
import { NativeCollectionDocument, type NativeItem } from "@/server/contracts/tester-native-format";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { AppError } from "@/server/errors";
import type { RunCollection } from "@/server/tester/collection-runner";
import { convertPostmanCollection } from "@/server/tester/import/postman";
import { UsageError } from "./usage-error";

export interface LoadedCollection {
  collection: RunCollection;
  format: "polymock-collection" | "postman";
  /** What did not convert (Postman features the tester lacks); printed, not fatal. */
  warnings: string[];
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(code === "ENOENT" ? `${what} '${path}' does not exist` : `cannot read ${what} '${path}': ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new UsageError(`${what} '${path}' is not JSON: ${(err as Error).message}`);
  }
}

/** The native document's nested items as the runner's flat folders and requests, in run order. */
export function runCollectionOf(doc: NativeCollectionDocument): RunCollection {
  const folders: RunCollection["folders"] = [];
  const requests: RunCollection["requests"] = [];
  let next = 0;
  const walk = (items: NativeItem[], parentId: string | null) => {
    // The workspace's order: a level's folders (each with everything inside) before its own requests.
    for (const item of items) {
      if (item.type !== "folder") continue;
      const id = `folder-${++next}`;
      folders.push({ id, parentId, name: item.name, auth: item.auth, scripts: item.scripts });
      walk(item.items, id);
    }
    for (const item of items) if (item.type === "request") requests.push({ id: `request-${++next}`, name: item.name, folderId: parentId, definition: item.request });
  };
  walk(doc.items, null);
  const c = doc.collection;
  return {
    id: null,
    name: c.name,
    auth: c.auth,
    scripts: c.scripts,
    // An export never carries a secret's value: the mask stands for "give it with --env-var".
    variables: Object.fromEntries(c.variables.filter((v) => v.enabled).map((v) => [v.key, v.secret && v.value === SECRET_MASK ? "" : v.value])),
    folders,
    requests,
  };
}

function isPostman(json: unknown): boolean {
  if (!json || typeof json !== "object") return false;
  const doc = json as Record<string, unknown>;
  const inner = (doc.collection && typeof doc.collection === "object" ? doc.collection : doc) as Record<string, unknown>;
  return Array.isArray(inner.item) || (!!inner.info && typeof inner.info === "object");
}

export async function loadCollectionFile(path: string): Promise<LoadedCollection> {
  const json = await readJsonFile(path, "collection file");
  if (json && typeof json === "object" && (json as { format?: unknown }).format === "polymock-collection") {
    const parsed = NativeCollectionDocument.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`collection file '${path}' is not a valid polymock-collection: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
    }
    return { collection: runCollectionOf(parsed.data), format: "polymock-collection", warnings: [] };
  }
  if (isPostman(json)) {
    try {
      const converted = convertPostmanCollection(json);
      const warnings = [...converted.warnings.map((w) => `${w.path}: ${w.message}`), ...converted.failures.map((f) => `${f.path}: left out: ${f.reason}`)];
      return { collection: runCollectionOf(converted.document), format: "postman", warnings };
    } catch (err) {
      if (err instanceof AppError) throw new UsageError(`collection file '${path}': ${err.message}`);
      throw err;
    }
  }
  throw new UsageError(`collection file '${path}' is neither a polymock-collection export nor a Postman collection (v2.0/v2.1)`);
}
