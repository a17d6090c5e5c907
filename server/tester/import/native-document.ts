// Reads a native collection document item by item, so one bad request or
// folder does not refuse the whole file (the spec's 207 rule for the native
// import): what fits the contract is kept, each item that does not becomes a
// failure naming its place, and a folder that fails takes the items inside it
// along (they are skipped, not listed one by one). Only the top level (not an
// object, wrong format or version, no valid collection header, too many
// items in all) refuses the document: a 400 naming the location.
import { z } from "zod";
import {
  MAX_FOLDER_DEPTH,
  MAX_NATIVE_ITEMS,
  NATIVE_COLLECTION_FORMAT,
  NATIVE_COLLECTION_VERSION,
  NativeCollectionDocument,
  NativeFolderItem,
  NativeRequestItem,
  type NativeItem,
} from "@/server/contracts/tester-native-format";
import type { ImportFailure } from "@/server/contracts/tester-import";
import { Variable } from "@/server/contracts/tester-request";
import { errors } from "@/server/errors";
import { validationError } from "@/server/validation-error";

export interface ReadDocument {
  document: NativeCollectionDocument;
  /** Every item left out, in document order. */
  failures: ImportFailure[];
}

const Header = z.object({
  format: z.literal(NATIVE_COLLECTION_FORMAT, { message: `must be "${NATIVE_COLLECTION_FORMAT}"` }),
  version: z.literal(NATIVE_COLLECTION_VERSION, { message: `must be ${NATIVE_COLLECTION_VERSION} (the only version this server reads)` }),
  exportedAt: z.string().optional(),
  collection: z.object({}).passthrough(),
  items: z.array(z.unknown()).default([]),
});

const CollectionHeader = z.object({
  name: z.string().trim().min(1, "must not be empty").max(255, "at most 255 characters"),
  description: z.string().max(10_000).default(""),
  variables: z.array(z.unknown()).max(1000).default([]),
  auth: NativeCollectionDocument.shape.collection.shape.auth,
  scripts: NativeCollectionDocument.shape.collection.shape.scripts,
});

function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const at = issue.path.length ? `${issue.path.map(String).join(".")}: ` : "";
  return `${at}${issue.message}`;
}

function nameOf(raw: unknown): string {
  const name = raw && typeof raw === "object" ? (raw as { name?: unknown }).name : undefined;
  return typeof name === "string" ? name.slice(0, 255) : "";
}

function countItems(raw: unknown): number {
  if (!Array.isArray(raw)) return 0;
  return raw.reduce<number>((n, item) => n + 1 + countItems(item && typeof item === "object" ? (item as { items?: unknown }).items : undefined), 0);
}

/** The document as far as it fits; throws a 400 only for its top level. */
export function readNativeDocument(input: unknown): ReadDocument {
  if (!input || typeof input !== "object" || Array.isArray(input)) {
    throw errors.validation("The document is not a native collection: expected a JSON object", [{ location: "body", field: "", message: "expected an object" }]);
  }
  const header = Header.safeParse(input);
  if (!header.success) throw validationError(header.error, "body");
  const collection = CollectionHeader.safeParse(header.data.collection);
  if (!collection.success) throw validationError(collection.error, "body", ["collection"]);
  const total = countItems(header.data.items);
  if (total > MAX_NATIVE_ITEMS) {
    throw errors.validation(`A document holds at most ${MAX_NATIVE_ITEMS} folders and requests in all (this one has ${total})`, [{ location: "body", field: "items", message: "too many items" }]);
  }

  const failures: ImportFailure[] = [];
  const variables = collection.data.variables.flatMap((raw, i) => {
    const parsed = Variable.safeParse(raw);
    if (parsed.success) return [parsed.data];
    failures.push({ path: `collection.variables[${i}]`, name: nameOf({ name: (raw as { key?: unknown })?.key }), type: "variable", reason: firstProblem(parsed.error) });
    return [];
  });

  const readItems = (raws: unknown[], depth: number, path: string): NativeItem[] =>
    raws.flatMap((raw, i): NativeItem[] => {
      const at = `${path}[${i}]`;
      const type = raw && typeof raw === "object" ? (raw as { type?: unknown }).type : undefined;
      if (type === "folder") {
        const inner = (raw as { items?: unknown }).items;
        const skipped = countItems(inner);
        const fail = (reason: string): NativeItem[] => {
          failures.push({ path: at, name: nameOf(raw), type: "folder", reason: skipped ? `${reason} (${skipped} item${skipped === 1 ? "" : "s"} inside skipped)` : reason });
          return [];
        };
        if (inner !== undefined && !Array.isArray(inner)) return fail("items: expected an array");
        if (depth >= MAX_FOLDER_DEPTH) return fail(`folders nest at most ${MAX_FOLDER_DEPTH} deep`);
        const folder = NativeFolderItem.safeParse({ ...(raw as object), items: [] });
        if (!folder.success) return fail(firstProblem(folder.error));
        return [{ ...folder.data, items: readItems((inner as unknown[] | undefined) ?? [], depth + 1, `${at}.items`) }];
      }
      if (type === "request") {
        const request = NativeRequestItem.safeParse(raw);
        if (request.success) return [request.data];
        failures.push({ path: at, name: nameOf(raw), type: "request", reason: firstProblem(request.error) });
        return [];
      }
      failures.push({ path: at, name: nameOf(raw), reason: `type: must be "folder" or "request"` });
      return [];
    });

  const items = readItems(header.data.items, 0, "items");
  return {
    document: {
      format: NATIVE_COLLECTION_FORMAT,
      version: NATIVE_COLLECTION_VERSION,
      ...(header.data.exportedAt ? { exportedAt: header.data.exportedAt } : {}),
      collection: { ...collection.data, variables },
      items,
    },
    failures,
  };
}
