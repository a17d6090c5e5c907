// HAR 1.2 → an API tester collection, read by the generators' one HAR
// reader (server/generators/har-entries.ts): every HTTP(S) request in
// recorded order, in a folder per host when the recording spans several
// (one host: no folder), with its query as params, its headers (minus what
// the client computes itself: Host, Content-Length, Connection, HTTP/2
// pseudo-headers) and its body (text as raw, form params as urlencoded or
// form-data). Secrets in the recording (Cookie, Authorization) are kept, as
// Postman's HAR import keeps them: the recording is the user's own.
import { HTTP_METHODS, type KeyValue, type RequestBody, type RAW_LANGUAGES } from "@/server/contracts/tester-request";
import { readHar } from "@/server/generators/har-entries";
import { GeneratorInputError } from "@/server/generators/input-error";
import { collectionDocument, folderItem, requestItem, type ConvertedCollection, type ImportWarning, type ItemInput } from "./common";

const COMPUTED_HEADERS = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade"]);

export function languageOf(mime: string): (typeof RAW_LANGUAGES)[number] {
  if (/json/i.test(mime)) return "json";
  if (/xml/i.test(mime)) return "xml";
  if (/html/i.test(mime)) return "html";
  if (/javascript/i.test(mime)) return "javascript";
  return "text";
}

type HarEntry = ReturnType<typeof readHar>[number];

function readablePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function bodyOf(entry: HarEntry): RequestBody | undefined {
  const post = entry.request.postData;
  if (!post) return undefined;
  const mime = post.mimeType ?? "";
  if (post.params?.length && !post.text) {
    const fields = post.params.map((p) => ({ key: p.name, value: p.value ?? "", enabled: true }));
    if (/multipart\/form-data/i.test(mime)) return { mode: "formdata", formdata: fields.map((f) => ({ ...f, type: "text" as const })) };
    return { mode: "urlencoded", urlencoded: fields };
  }
  if (post.text === undefined || post.text === "") return undefined;
  if (/x-www-form-urlencoded/i.test(mime)) return { mode: "urlencoded", urlencoded: [...new URLSearchParams(post.text)].map(([key, value]) => ({ key, value, enabled: true })) };
  return { mode: "raw", raw: post.text, language: languageOf(mime) };
}

export function harToCollection(document: unknown, name = "HAR import"): ConvertedCollection {
  const entries = readHar(document);
  const warnings: ImportWarning[] = [];
  const hosts = new Map<string, ItemInput[]>();
  entries.forEach((entry, i) => {
    const at = `/log/entries/${i}`;
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch {
      warnings.push({ pointer: `${at}/request/url`, message: "not a URL: skipped" });
      return;
    }
    const method = entry.request.method.toUpperCase();
    if (url.protocol !== "http:" && url.protocol !== "https:") return void warnings.push({ pointer: at, message: `${url.protocol} is not HTTP(S): skipped` });
    if (!(HTTP_METHODS as readonly string[]).includes(method)) return void warnings.push({ pointer: at, message: `the method ${method} is not one the tester sends: skipped` });
    const headers: KeyValue[] = entry.request.headers.filter((h) => !h.name.startsWith(":") && !COMPUTED_HEADERS.has(h.name.toLowerCase())).map((h) => ({ key: h.name, value: h.value, enabled: true }));
    const params: KeyValue[] = [...url.searchParams].map(([key, value]) => ({ key, value, enabled: true }));
    const body = bodyOf(entry);
    const list = hosts.get(url.host) ?? hosts.set(url.host, []).get(url.host)!;
    list.push(requestItem(`${method} ${readablePath(url.pathname)}`, { kind: "http", method, url: `${url.origin}${url.pathname}`, headers, params, ...(body ? { body } : {}) }));
  });
  if (!hosts.size) throw new GeneratorInputError("the HAR has no HTTP(S) requests to import", { pointer: "/log/entries" });
  const items = hosts.size === 1 ? [...hosts.values()][0] : [...hosts].map(([host, list]) => folderItem(host, list));
  return { document: collectionDocument({ name, items }), warnings };
}
