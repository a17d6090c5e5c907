// Parsed GraphQL documents, kept by query text: clients send the same few
// documents over and over, and parsing one costs more than answering it.
// A bounded LRU — in entries and in query text — that keeps only documents
// that parsed, so a client sending endless distinct or broken documents
// costs a parse each, as without the cache, and never memory beyond the bound.
import { GraphQLError, Kind, parse, type ArgumentNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";

export const GRAPHQL_DOCUMENT_CACHE = {
  /** Documents kept. */
  maxEntries: 500,
  /** Characters of query text kept in all; the parsed form grows with it. */
  maxTotalChars: 1024 * 1024,
  /** A longer document is parsed for every request, never kept. */
  maxEntryChars: 32 * 1024,
};

/** A top-level field as the document selects it; its arguments are values already when none uses a variable. */
export interface FieldPlan {
  responseKey: string;
  name: string;
  /** When no argument uses a variable; frozen, shared by every request of the document. */
  constantArgs: Readonly<Record<string, unknown>> | undefined;
  /** Otherwise all its arguments, evaluated per request. */
  variableArgs: readonly ArgumentNode[] | undefined;
}

/**
 * An operation analysed once: its variables' defaults (frozen), and its
 * top-level fields — or why it cannot run — unless an @skip/@include reads a
 * variable, when the fields are collected per request (`fields` undefined).
 */
export interface OperationPlan {
  defaults: readonly [string, unknown][];
  fields: readonly FieldPlan[] | { problem: string } | undefined;
}

/** A parsed document's definitions, and what has been worked out about its operations (filled on first use, see graphql.ts). */
export interface ParsedDocument {
  operations: OperationDefinitionNode[];
  fragments: Map<string, FragmentDefinitionNode>;
  /** Set when the document holds definitions that cannot be executed. */
  invalid?: string;
  /** Per operation, its analysis as far as it does not depend on the request's variables. */
  plans: Map<OperationDefinitionNode, OperationPlan>;
}

export type DocumentResult = { ok: true; value: ParsedDocument } | { ok: false; message: string; code: string };

class DocumentCache {
  readonly #entries = new Map<string, ParsedDocument>();
  #chars = 0;

  get size() {
    return this.#entries.size;
  }

  get chars() {
    return this.#chars;
  }

  get(text: string): ParsedDocument | undefined {
    const hit = this.#entries.get(text);
    if (hit) {
      // Most recently used last: eviction takes from the front.
      this.#entries.delete(text);
      this.#entries.set(text, hit);
    }
    return hit;
  }

  set(text: string, doc: ParsedDocument) {
    if (text.length > GRAPHQL_DOCUMENT_CACHE.maxEntryChars) return;
    this.#entries.set(text, doc);
    this.#chars += text.length;
    while (this.#entries.size > GRAPHQL_DOCUMENT_CACHE.maxEntries || this.#chars > GRAPHQL_DOCUMENT_CACHE.maxTotalChars) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
      this.#chars -= oldest.length;
    }
  }

  clear() {
    this.#entries.clear();
    this.#chars = 0;
  }
}

export const graphqlDocuments = new DocumentCache();

/** The document of a query text, from the cache or parsed (`maxTokens` bounds the parser); parse errors are results, never thrown. */
export function parsedDocument(text: string, limits: { maxTokens: number; maxNesting: number; nestingOf: (text: string) => number }): DocumentResult {
  const cached = graphqlDocuments.get(text);
  if (cached) return { ok: true, value: cached };
  if (limits.nestingOf(text) > limits.maxNesting) return { ok: false, message: `The document is nested deeper than ${limits.maxNesting} levels`, code: "GRAPHQL_PARSE_FAILED" };
  let doc: DocumentNode;
  try {
    doc = parse(text, { noLocation: true, maxTokens: limits.maxTokens });
  } catch (err) {
    if (err instanceof GraphQLError) return { ok: false, message: err.message, code: "GRAPHQL_PARSE_FAILED" };
    // A document nested deeper than the stack allows.
    if (err instanceof RangeError) return { ok: false, message: "The document is nested too deeply", code: "GRAPHQL_PARSE_FAILED" };
    throw err;
  }
  const parsed: ParsedDocument = { operations: [], fragments: new Map(), plans: new Map() };
  for (const d of doc.definitions) {
    if (d.kind === Kind.OPERATION_DEFINITION) parsed.operations.push(d);
    else if (d.kind === Kind.FRAGMENT_DEFINITION) parsed.fragments.set(d.name.value, d);
    else parsed.invalid ??= "Type system definitions cannot be executed";
  }
  graphqlDocuments.set(text, parsed);
  return { ok: true, value: parsed };
}
