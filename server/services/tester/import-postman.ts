// Postman imports: a collection (v2.0/v2.1) through the pure converter
// (server/tester/import/postman.ts) into the one import service; an
// environment into a new tester environment ('secret' values sealed).
import type { Actor } from "@/server/auth/actor";
import type { EnvironmentImportResult, ImportQuery, ImportResult } from "@/server/contracts/tester-import";
import { MAX_LISTED_WARNINGS } from "@/server/contracts/tester-import";
import { convertPostmanCollection } from "@/server/tester/import/postman";
import { convertPostmanEnvironment } from "@/server/tester/import/postman-environment";
import type { NamespaceScope } from "../namespace-access";
import { createEnvironment } from "./environments";
import { importCollectionDocument } from "./import-collection";
import { documentJson, type ImportBody, importOptions } from "./import-document";

export async function importPostmanCollection(actor: Actor, scope: NamespaceScope, body: ImportBody, query?: ImportQuery): Promise<ImportResult> {
  const { document, warnings, failures } = convertPostmanCollection(documentJson(body, "a Postman collection"));
  return importCollectionDocument(actor, scope, document, { ...importOptions(query, body, "postman"), warnings, failures });
}

export async function importPostmanEnvironment(actor: Actor, scope: NamespaceScope, body: ImportBody, query?: ImportQuery): Promise<EnvironmentImportResult> {
  const converted = convertPostmanEnvironment(documentJson(body, "a Postman environment"));
  const options = importOptions(query, body, "postman-env");
  const name = options.name ?? converted.name;
  const environmentId = options.preview ? null : (await createEnvironment(actor, scope, { name, variables: converted.variables, secrets: converted.secrets })).id;
  const secret = new Set(converted.secrets);
  return {
    environmentId,
    name,
    source: "postman-env",
    imported: { variables: Object.keys(converted.variables).length, secrets: secret.size },
    variables: Object.keys(converted.variables).map((key) => ({ key, secret: secret.has(key), enabled: true })),
    warnings: converted.warnings.slice(0, MAX_LISTED_WARNINGS),
    preview: options.preview === true,
  };
}
