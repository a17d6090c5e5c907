// What every format importer shares: building a native collection document
// (server/contracts/tester-native-format.ts) that the one save service
// stores, names that fit the item limits, `{x}`/`${x}` → `{{x}}`, and the
// generators' `$.fake.*` sample placeholders turned into Postman dynamic
// variables (`{{$guid}}`), which the API tester draws a fresh value for on
// every send, as the mock engine does for the placeholders.
import { NativeCollectionDocument, NATIVE_COLLECTION_FORMAT, NATIVE_COLLECTION_VERSION, type NativeItem } from "@/server/contracts/tester-native-format";
import type { RequestAuth, RequestDefinitionInput, Variable } from "@/server/contracts/tester-request";
import { GeneratorInputError } from "@/server/generators/input-error";
import type { GeneratorWarning } from "@/server/generators/types";

export type ImportWarning = GeneratorWarning;

/** One collection an importer made, with what it could not carry over. */
export interface ConvertedCollection {
  document: NativeCollectionDocument;
  warnings: ImportWarning[];
}

type ItemInput = { type: "folder"; name: string; description?: string; auth?: RequestAuth; items: ItemInput[] } | { type: "request"; name: string; request: RequestDefinitionInput };

/** A name the item schema accepts: trimmed, at most 255 characters, never empty. */
export function itemName(name: string | undefined, fallback: string): string {
  const trimmed = (name ?? "").replace(/\s+/g, " ").trim();
  const chosen = trimmed || fallback.trim() || "Untitled";
  return chosen.length > 255 ? `${chosen.slice(0, 254)}…` : chosen;
}

export const folderItem = (name: string, items: ItemInput[], extra: { description?: string; auth?: RequestAuth } = {}): ItemInput => ({ type: "folder", name: itemName(name, "Folder"), items, ...extra });
export const requestItem = (name: string, request: RequestDefinitionInput): ItemInput => ({ type: "request", name: itemName(name, `${request.method ?? "GET"} ${request.url}`), request });
export type { ItemInput };

/** The document, checked by the native format's own schema; a value it refuses is a 400 at its place. */
export function collectionDocument(c: { name: string; description?: string; variables?: Variable[]; auth?: RequestAuth; items: ItemInput[] }): NativeCollectionDocument {
  const input = {
    format: NATIVE_COLLECTION_FORMAT,
    version: NATIVE_COLLECTION_VERSION,
    collection: { name: itemName(c.name, "Imported collection"), description: (c.description ?? "").slice(0, 10_000), variables: dedupeVariables(c.variables ?? []), auth: c.auth ?? { type: "none" } },
    items: c.items as NativeItem[],
  };
  const parsed = NativeCollectionDocument.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GeneratorInputError(`the converted collection is not valid at ${issue.path.join(".") || "its top"}: ${issue.message}`);
  }
  return parsed.data;
}

function dedupeVariables(vars: Variable[]): Variable[] {
  const seen = new Set<string>();
  return vars.filter((v) => (seen.has(v.key) ? false : (seen.add(v.key), true)));
}

export const variable = (key: string, value: string, secret = false): Variable => ({ key, value, secret, enabled: true });

/** `{petId}` (OpenAPI, URI templates) → `{{petId}}`. */
export const braceVariables = (text: string) => text.replace(/\{([^{}]+)\}/g, "{{$1}}");

/** `${host}` (JMeter, SoapUI property expansions `${#Project#host}`) → `{{host}}`; JMeter functions (`${__time()}`) stay and are reported by the caller. */
export function dollarVariables(text: string): string {
  return text.replace(/\$\{(?:#(?:Project|TestSuite|TestCase|Global|Env|System)#)?([A-Za-z_][\w.-]*)\}/g, "{{$1}}");
}

/** Fake generators of the samples → Postman dynamic variables; `number` ones are written without quotes in a JSON body. */
const FAKE_TO_DYNAMIC: Record<string, { name: string; number?: boolean }> = {
  UUID: { name: "$guid" },
  Email: { name: "$randomEmail" },
  FullName: { name: "$randomFullName" },
  FirstName: { name: "$randomFirstName" },
  LastName: { name: "$randomLastName" },
  Username: { name: "$randomUserName" },
  Phone: { name: "$randomPhoneNumber" },
  City: { name: "$randomCity" },
  Country: { name: "$randomCountry" },
  StreetAddress: { name: "$randomStreetAddress" },
  Company: { name: "$randomCompanyName" },
  URL: { name: "$randomUrl" },
  IPv4: { name: "$randomIP" },
  IPv6: { name: "$randomIPV6" },
  Domain: { name: "$randomDomainName" },
  Sentence: { name: "$randomLoremSentence" },
  Currency: { name: "$randomCurrencyCode" },
  RFC3339: { name: "$isoTimestamp" },
  Int: { name: "$randomInt", number: true },
  Price: { name: "$randomPrice", number: true },
  UnixTime: { name: "$timestamp", number: true },
};
/** Generators without a Postman twin: a fixed example of their kind. */
const FAKE_PLAIN: Record<string, unknown> = { Float: 1.5, Latitude: 52.52, Longitude: 13.405, Age: 30, Port: 8080, Date: "2026-01-01", Time: "12:00:00", ZipCode: "10115", Bool: true };

const FAKE = /^\$\.fake\.([A-Za-z0-9]+)$/;
const NUMBER_MARK = "\u0000num:";

/** A sample with its `$.fake.X` strings replaced (numbers marked for jsonText). */
export function withDynamicVariables(value: unknown, depth = 0): unknown {
  if (depth > 64) return value;
  if (typeof value === "string") {
    const m = FAKE.exec(value);
    if (!m) return value;
    const dyn = FAKE_TO_DYNAMIC[m[1]];
    if (dyn) return dyn.number ? `${NUMBER_MARK}{{${dyn.name}}}` : `{{${dyn.name}}}`;
    return m[1] in FAKE_PLAIN ? FAKE_PLAIN[m[1]] : m[1];
  }
  if (Array.isArray(value)) return value.map((v) => withDynamicVariables(v, depth + 1));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDynamicVariables(v, depth + 1)]));
  return value;
}

/** Pretty JSON of a sample, numeric dynamic variables unquoted (`"n": {{$randomInt}}`), as Postman users write them. */
export function jsonText(value: unknown): string {
  return JSON.stringify(withDynamicVariables(value), null, 2).replace(/"\\u0000num:(\{\{\$[A-Za-z]+\}\})"/g, "$1");
}

/** A sample as one text value (a header, a query parameter, a form field). */
export function textValue(value: unknown): string {
  const v = withDynamicVariables(value);
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v.startsWith(NUMBER_MARK) ? v.slice(NUMBER_MARK.length) : v;
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

/** Numeric character references (`&#xd;`, `&#10;`) the XML reader leaves as written (it expands no entities). */
export function decodeCharRefs(text: string): string {
  return text.replace(/&#(x[0-9a-fA-F]{1,6}|[0-9]{1,7});/g, (whole, code: string) => {
    const n = code[0] === "x" ? parseInt(code.slice(1), 16) : Number(code);
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
  });
}
