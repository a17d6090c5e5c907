// Imports from specifications and other tools' files (OpenAPI, WSDL, GraphQL,
// MCP, HAR, SoapUI, JMeter): each format's pure converter
// (server/tester/import/<format>.ts, built on the generators' one parser per
// format) turns the document into the native collection document, and the
// one save service (import-collection.ts) stores it. A document the format
// cannot read is a 400 naming where (line and column, or a JSON pointer);
// then nothing is written.
import type { Actor } from "@/server/auth/actor";
import type { ImportQuery, ImportResult, ImportWarning } from "@/server/contracts/tester-import";
import { db } from "@/server/db/client";
import { errors } from "@/server/errors";
import { MAX_DOCUMENT_BYTES, parseDocumentText } from "@/server/generators/document-text";
import { GeneratorInputError } from "@/server/generators/input-error";
import type { ConvertedCollection, ImportWarning as ConverterWarning } from "@/server/tester/import/common";
import { graphqlToCollection } from "@/server/tester/import/graphql";
import { harToCollection } from "@/server/tester/import/har";
import { jmxToCollections } from "@/server/tester/import/jmx";
import { mcpToCollection } from "@/server/tester/import/mcp";
import { openapiToCollection } from "@/server/tester/import/openapi";
import { soapuiToCollection } from "@/server/tester/import/soapui";
import { wsdlToCollection } from "@/server/tester/import/wsdl";
import { readMcpServer } from "../generators-mcp-source";
import type { NamespaceScope } from "../namespace-access";
import { importCollectionDocument } from "./import-collection";
import { type ImportBody, importOptions } from "./import-document";

export const FORMAT_IMPORTS = ["openapi", "wsdl", "graphql", "mcp", "har", "soapui"] as const;
export type FormatImport = (typeof FORMAT_IMPORTS)[number];

/** A document the format cannot read: 400 with where the reader stopped. */
export function unreadable(err: GeneratorInputError, field = "") {
  return errors.validation(`The document cannot be imported: ${err.message}`, [{ location: "body", field, message: err.message, ...err.location }]);
}

async function converted<T>(work: () => T | Promise<T>, field = ""): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof GeneratorInputError) throw unreadable(err, field);
    throw err;
  }
}

export const warningsOf = (list: ConverterWarning[]): ImportWarning[] => list.map((w) => ({ path: w.pointer ?? "", message: w.message }));

const structured = (body: ImportBody) => (body.json !== undefined ? body.json : parseDocumentText(body.text));
const fieldString = (body: ImportBody, key: string) => (typeof body.fields[key] === "string" && body.fields[key] !== "" ? (body.fields[key] as string) : undefined);

/** `{"url": "…"}` alone names a live MCP server; anything else is a list document. */
function liveMcpUrl(body: ImportBody): string | undefined {
  const json = body.json;
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined;
  const obj = json as Record<string, unknown>;
  if (typeof obj.url !== "string" || ["tools", "prompts", "resources", "jsonrpc", "result"].some((k) => k in obj)) return undefined;
  return obj.url;
}

async function convert(format: FormatImport, body: ImportBody): Promise<ConvertedCollection> {
  switch (format) {
    case "openapi":
      return converted(() => openapiToCollection(structured(body)));
    case "wsdl":
      return converted(() => wsdlToCollection(body.text));
    case "graphql":
      return converted(() => graphqlToCollection(/^\s*[{[]/.test(body.text) ? structured(body) : body.text, { url: fieldString(body, "url") }));
    case "mcp": {
      const live = liveMcpUrl(body);
      // The live server is read under the outbound policy (checked before connecting and after each redirect).
      if (live !== undefined) {
        const lists = await readMcpServer(live, { field: "url", maxBytes: MAX_DOCUMENT_BYTES });
        return converted(() => mcpToCollection(lists, { url: live }), "url");
      }
      return converted(() => mcpToCollection(structured(body), { url: fieldString(body, "url") }));
    }
    case "har":
      return converted(() => harToCollection(structured(body)));
    case "soapui":
      return converted(() => soapuiToCollection(body.text));
  }
}

/** POST /api/v1/api-tester/import/<format>: one document, one new collection (or its preview). */
export async function importFormat(format: FormatImport, actor: Actor, scope: NamespaceScope, body: ImportBody, query?: ImportQuery): Promise<ImportResult> {
  const { document, warnings } = await convert(format, body);
  return importCollectionDocument(actor, scope, document, { ...importOptions(query, body, format), warnings: warningsOf(warnings) });
}

export interface JmxImportResult extends ImportResult {
  collections: ImportResult[];
}

/**
 * POST /api/v1/api-tester/import/jmx: a collection per thread group. All are
 * checked (a preview of each) before the first is written, and when writing
 * one fails the ones already written are removed, so a plan is imported
 * whole or not at all. The top-level fields describe the first collection;
 * `collections` lists every one.
 */
export async function importJmx(actor: Actor, scope: NamespaceScope, body: ImportBody, query?: ImportQuery): Promise<JmxImportResult> {
  const { collections, warnings } = await converted(() => jmxToCollections(body.text));
  const opts = importOptions(query, body, "jmx");
  const planWarnings = warningsOf(warnings);
  const named = (i: number) => (opts.name ? (collections.length === 1 ? opts.name : `${opts.name} / ${collections[i].document.collection.name.split(" / ").pop()}`) : undefined);
  const optionsOf = (i: number, preview: boolean) => ({ ...opts, preview, name: named(i), warnings: [...(i === 0 ? planWarnings : []), ...warningsOf(collections[i].warnings)] });
  const previews: ImportResult[] = [];
  for (let i = 0; i < collections.length; i++) previews.push(await importCollectionDocument(actor, scope, collections[i].document, optionsOf(i, true)));
  let results = previews;
  if (!opts.preview) {
    results = [];
    try {
      for (let i = 0; i < collections.length; i++) results.push(await importCollectionDocument(actor, scope, collections[i].document, optionsOf(i, false)));
    } catch (err) {
      const written = results.map((r) => r.collectionId).filter((id): id is string => id !== null);
      if (written.length) await db().testerCollection.deleteMany({ where: { id: { in: written }, namespaceId: scope.id } });
      throw err;
    }
  }
  return { ...results[0], collections: results };
}
