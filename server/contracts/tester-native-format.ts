// The native collection file, version 1: what
// GET /api/v1/api-tester/collections/{id}/export writes and the native import
// (POST /api/v1/api-tester/import/mockarty) reads. One schema for both, so a
// file we export is always a file we import. A document is self-contained:
// no ids (they belong to one installation), the folder tree nested in
// `items` in the collection's order. Secret variables keep their key and
// `secret: true`, but their value is SECRET_MASK: an export never carries a
// secret (an importer stores such a value as empty, to be filled in).
//
//   {"format": "polymock-collection", "version": 1, "exportedAt": "…",
//    "collection": {"name", "description", "variables", "auth", "scripts"},
//    "items": [{"type": "folder", "name", …, "items": [...]},
//              {"type": "request", "name", "request": RequestDefinition}]}
//
// A later version gets a new literal and a converter from this one; readers
// refuse versions they do not know rather than guess.
import { z } from "zod";
import { RequestAuth, RequestDefinition, Scripts, Variable } from "./tester-request";

export const NATIVE_COLLECTION_FORMAT = "polymock-collection";
export const NATIVE_COLLECTION_VERSION = 1;
/** Items (folders and requests) of one document, all levels together. */
export const MAX_NATIVE_ITEMS = 10_000;
/** Folder nesting a document may have (the same limit as stored collections). */
export const MAX_FOLDER_DEPTH = 16;

const ItemName = z.string().trim().min(1, "must not be empty").max(255, "at most 255 characters");

export const NativeRequestItem = z.object({
  type: z.literal("request"),
  name: ItemName,
  request: RequestDefinition,
});
export type NativeRequestItem = z.infer<typeof NativeRequestItem>;

export const NativeFolderItem = z
  .object({
    type: z.literal("folder"),
    name: ItemName,
    description: z.string().max(10_000).default(""),
    auth: RequestAuth.default({ type: "inherit" }).describe("inherit: the parent folder's, then the collection's"),
    scripts: Scripts.default({}).describe("run around every request inside the folder, after the collection's"),
    get items(): z.ZodDefault<z.ZodArray<typeof NativeItem>> {
      return z.array(NativeItem).default([]);
    },
  })
  // A named component: the OpenAPI document describes the recursion with one $ref.
  .meta({ id: "NativeCollectionFolder" });
export type NativeFolderItem = z.infer<typeof NativeFolderItem>;

export const NativeItem = z.discriminatedUnion("type", [NativeFolderItem, NativeRequestItem]).meta({ id: "NativeCollectionItem" });
export type NativeItem = z.infer<typeof NativeItem>;

export const NativeCollectionDocument = z
  .object({
    format: z.literal(NATIVE_COLLECTION_FORMAT),
    version: z.literal(NATIVE_COLLECTION_VERSION),
    exportedAt: z.string().optional().describe("ISO 8601; informative"),
    collection: z.object({
      name: ItemName,
      description: z.string().max(10_000).default(""),
      variables: z.array(Variable).max(1000).default([]).describe("secret values are SECRET_MASK"),
      auth: RequestAuth.default({ type: "none" }),
      scripts: Scripts.default({}),
    }),
    items: z.array(NativeItem).default([]),
  })
  .superRefine((doc, ctx) => {
    // Limits of the whole tree, which no single level can check.
    let count = 0;
    const walk = (items: NativeItem[], depth: number, path: (string | number)[]) => {
      for (const [i, item] of items.entries()) {
        count++;
        if (item.type !== "folder") continue;
        if (depth >= MAX_FOLDER_DEPTH) {
          ctx.addIssue({ code: "custom", path: [...path, i], message: `folders nest at most ${MAX_FOLDER_DEPTH} deep` });
          return;
        }
        walk(item.items, depth + 1, [...path, i, "items"]);
      }
    };
    walk(doc.items, 0, ["items"]);
    if (count > MAX_NATIVE_ITEMS) ctx.addIssue({ code: "custom", path: ["items"], message: `at most ${MAX_NATIVE_ITEMS} folders and requests in all` });
  });
export type NativeCollectionDocument = z.infer<typeof NativeCollectionDocument>;
