// The shared half of every import route: the document (raw body, {data} or
// {content}), the namespace it goes to (query, header or the wrapped body's
// `namespace`, which must agree) and the answer's status (207 when some
// items failed, the spec's partial-failure rule).
import type { Actor } from "@/server/auth/actor";
import type { ImportResult } from "@/server/contracts/tester-import";
import { env } from "@/server/env";
import type { NamespaceScope } from "@/server/services/namespace-access";
import { uploadNamespace } from "./body-namespace";
import { Reply } from "./define-route";
import { type DocumentBody, readDocumentBody } from "./read-document-body";

/** Import documents may be larger than an ordinary JSON body. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;

export interface ImportRequest {
  scope: NamespaceScope;
  body: DocumentBody;
}

export async function readImportRequest(input: { actor: Actor; req: Request; namespace?: NamespaceScope }): Promise<ImportRequest> {
  const body = await readDocumentBody(input.req, Math.max(env().MAX_BODY_BYTES, MAX_IMPORT_BYTES));
  const inBody = typeof body.fields.namespace === "string" && body.fields.namespace !== "" ? body.fields.namespace : null;
  const scope = await uploadNamespace(input.actor, input.req, input.namespace, inBody, "write");
  return { scope, body };
}

/** 200 when everything was saved, 207 when some items failed. */
export function importReply(result: ImportResult): Reply {
  return new Reply(result, { status: result.summary.failedCount > 0 ? 207 : 200 });
}
