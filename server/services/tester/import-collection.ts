// Saves an imported collection. Every importer (Postman, OpenAPI, WSDL, HAR,
// the native format…) converts its input into the native collection
// document (server/contracts/tester-native-format.ts, what the export
// writes) and calls importCollectionDocument: one place that writes the
// tree, so every format gets the same limits, secrets rule, ordering and
// transaction. The document is read item by item (a bad item is a failure,
// the rest is saved: the route answers 207), and the rows are written in
// one transaction, so a failure while writing leaves nothing behind.
// `preview` answers the same counts and the would-be tree without writing.
import { randomUUID } from "node:crypto";
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import { MAX_COLLECTION_FOLDERS, MAX_COLLECTION_REQUESTS } from "@/server/contracts/tester-collections";
import {
  type ImportQuery,
  MAX_LISTED_FAILURES,
  MAX_LISTED_WARNINGS,
  type ImportFailure,
  type ImportPreviewNode,
  type ImportResult,
  type ImportWarning,
} from "@/server/contracts/tester-import";
import { NativeCollectionDocument, type NativeItem } from "@/server/contracts/tester-native-format";
import { SECRET_MASK, type RequestDefinition } from "@/server/contracts/tester-request";
import type { Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import { readNativeDocument } from "@/server/tester/import/native-document";
import type { NamespaceScope } from "../namespace-access";
import { transaction } from "./access";
import { documentJson, type ImportBody, importOptions } from "./import-document";
import { columnsOf } from "./requests";
import { sealVariables } from "./secrets";

export interface ImportOptions {
  /** true: convert and count, write nothing. */
  preview?: boolean;
  /** The format imported (postman, mockarty, openapi…), echoed in the result. */
  source?: string;
  /** The new collection's name instead of the document's. */
  name?: string;
  /** What the converter could not keep; echoed (at most 200) with the full count. */
  warnings?: ImportWarning[];
  /** Failures the converter already found (items it could not convert); listed before the document's own. */
  failures?: ImportFailure[];
}

interface FolderRow {
  id: string;
  parentId: string | null;
  name: string;
  description: string;
  auth: unknown;
  scripts: unknown;
  sortIndex: number;
}
interface RequestRow {
  folderId: string | null;
  name: string;
  sortIndex: number;
  definition: RequestDefinition;
}

/**
 * Rows of the tree, parents before children. Within one parent the folders
 * and the requests are each numbered in document order (the export writes a
 * level's subfolders first, then its requests, so export → import → export
 * gives the same document).
 */
function rowsOf(items: NativeItem[]) {
  const folders: FolderRow[] = [];
  const requests: RequestRow[] = [];
  const visit = (level: NativeItem[], parentId: string | null) => {
    let folderIndex = 0;
    let requestIndex = 0;
    for (const item of level) {
      if (item.type === "folder") {
        const id = randomUUID();
        folders.push({ id, parentId, name: item.name, description: item.description, auth: item.auth, scripts: item.scripts, sortIndex: folderIndex++ });
        visit(item.items, id);
      } else {
        requests.push({ folderId: parentId, name: item.name, sortIndex: requestIndex++, definition: item.request });
      }
    }
  };
  visit(items, null);
  return { folders, requests };
}

function previewTree(items: NativeItem[]): ImportPreviewNode[] {
  return items.map((item) =>
    item.type === "folder"
      ? { type: "folder", name: item.name, items: previewTree(item.items) }
      : { type: "request", name: item.name, method: item.request.method, url: item.request.url, kind: item.request.kind },
  );
}

/**
 * Saves `doc` as a new collection of `scope` (or, with `preview`, only says
 * what would be saved). Items that do not fit the contract are failures and
 * left out; a document over the collection limits is a 400 and saves nothing.
 * Secret variables are stored sealed; a masked value (an export's) is stored
 * empty, to be filled in.
 */
export async function importCollectionDocument(
  actor: Actor,
  scope: NamespaceScope,
  doc: NativeCollectionDocument | z.input<typeof NativeCollectionDocument>,
  opts: ImportOptions = {},
): Promise<ImportResult> {
  const { document, failures: itemFailures } = readNativeDocument(doc);
  const failures = [...(opts.failures ?? []), ...itemFailures];
  const warnings = opts.warnings ?? [];
  const { folders, requests } = rowsOf(document.items);
  if (folders.length > MAX_COLLECTION_FOLDERS) {
    throw errors.validation(`A collection holds at most ${MAX_COLLECTION_FOLDERS} folders (this document has ${folders.length})`, [{ location: "body", field: "items", message: "too many folders" }]);
  }
  if (requests.length > MAX_COLLECTION_REQUESTS) {
    throw errors.validation(`A collection holds at most ${MAX_COLLECTION_REQUESTS} requests (this document has ${requests.length})`, [{ location: "body", field: "items", message: "too many requests" }]);
  }
  const name = opts.name ?? document.collection.name;
  const variables = document.collection.variables.map((v) => (v.value === SECRET_MASK ? { ...v, value: "" } : v));

  let collectionId: string | null = null;
  if (!opts.preview) {
    collectionId = await transaction(async (tx) => {
      const collection = await tx.testerCollection.create({
        data: {
          namespaceId: scope.id,
          name,
          description: document.collection.description,
          variables: sealVariables(variables) as Prisma.InputJsonValue,
          auth: document.collection.auth as Prisma.InputJsonValue,
          scripts: document.collection.scripts as Prisma.InputJsonValue,
          createdBy: actor.user.username,
        },
      });
      if (folders.length) {
        await tx.testerFolder.createMany({
          data: folders.map((f) => ({ ...f, collectionId: collection.id, auth: f.auth as Prisma.InputJsonValue, scripts: f.scripts as Prisma.InputJsonValue })),
        });
      }
      if (requests.length) {
        await tx.testerRequest.createMany({
          data: requests.map((r) => ({
            collectionId: collection.id,
            folderId: r.folderId,
            name: r.name,
            sortIndex: r.sortIndex,
            ...columnsOf(r.definition),
          })),
        });
      }
      return collection.id;
    });
  }

  return {
    collectionId,
    name,
    source: opts.source ?? "mockarty",
    imported: { folders: folders.length, requests: requests.length, variables: variables.length },
    requestsCount: folders.length + requests.length,
    summary: { importedFolders: folders.length, importedRequests: requests.length, failedCount: failures.length, warningCount: warnings.length },
    failures: failures.slice(0, MAX_LISTED_FAILURES),
    warnings: warnings.slice(0, MAX_LISTED_WARNINGS),
    preview: opts.preview === true,
    ...(opts.preview ? { tree: previewTree(document.items) } : {}),
  };
}

/** POST /api/v1/api-tester/import/mockarty: a native document, as the export writes it. */
export async function importNativeCollection(actor: Actor, scope: NamespaceScope, body: ImportBody, query?: ImportQuery): Promise<ImportResult> {
  return importCollectionDocument(actor, scope, documentJson(body, "a native collection") as z.input<typeof NativeCollectionDocument>, importOptions(query, body, "mockarty"));
}
