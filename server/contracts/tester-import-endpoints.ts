// Imports into the API tester: one endpoint per format, all with the same
// body (the document itself, or JSON {data|content: "<document>", namespace?,
// name?}), the same `preview` query and the same answer (tester-import.ts).
// Other formats add their entry here through collectionImportEndpoint.
import { endpoint } from "./endpoint";
import { EnvironmentImportResult, ImportQuery, ImportResult } from "./tester-import";

const tag = "API tester: import";
const BODY = "Body: the document itself, or JSON {data|content: \"<document>\", namespace?, name?}. With preview=true nothing is saved and the answer has the would-be tree.";
const NAMESPACE = { namespaced: "when-named", namespaceFallback: "or the wrapped body's `namespace`; default sandbox" } as const;

/** The endpoint of one collection format: POST /api/v1/api-tester/import/<format>. */
export function collectionImportEndpoint<const F extends string>(format: F, what: string) {
  return endpoint({
    method: "POST",
    path: `/api/v1/api-tester/import/${format}` as `/api/v1/api-tester/import/${F}`,
    tag,
    summary: `Import ${what} as a new collection. ${BODY}`,
    auth: "user",
    ...NAMESPACE,
    permission: "write",
    query: ImportQuery,
    response: ImportResult,
    successStatus: 200,
    statuses: { 207: "some requests or folders could not be imported: the rest is saved; `summary.failedCount` counts the failures, `failures` lists up to 50" },
  });
}

export const testerImportEndpoints = {
  mockarty: collectionImportEndpoint("mockarty", "a native collection document (polymock-collection v1, what the export writes)"),
  postman: collectionImportEndpoint("postman", "a Postman collection (v2.0 or v2.1)"),
  postmanEnv: endpoint({
    method: "POST",
    path: "/api/v1/api-tester/import/postman-env",
    tag,
    summary: `Import a Postman environment as a new environment; 'secret' values are stored sealed. ${BODY}`,
    auth: "user",
    ...NAMESPACE,
    permission: "write",
    query: ImportQuery,
    response: EnvironmentImportResult,
    successStatus: 200,
  }),
} as const;
