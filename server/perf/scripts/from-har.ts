// A HAR recording (read by the generators' one HAR reader) as a k6 script,
// the way k6's har-to-k6 converts one:
//
//   1. Entries in recorded order; those of one page inside a group() named
//      after the page, with sleep() between pages for as long as the user
//      paused (at most a minute), unless think time is turned off.
//   2. Static assets (images, style sheets, scripts, fonts, media) are left
//      out unless asked for: a load test is about pages and APIs, and a
//      browser would have them cached.
//   3. Headers as recorded, minus what the client computes (Host,
//      Content-Length, hop-by-hop ones, HTTP/2 pseudo-headers), Cookie (the
//      recorded session; the server sets new cookies in the run) and
//      Accept-Encoding (the load engine reads bodies as they arrive).
//   4. The most common origin becomes __ENV.BASE_URL, so the same recording
//      can be pointed at another environment with `-e BASE_URL=…`.
//   5. Each request checks the recorded status; a redirect is replayed as
//      recorded (redirects: 0), since the recording holds the next request.
import type { PerfLoadOptions } from "@/server/contracts/perf-script-endpoints";
import { type HarLogEntry, readHarLog } from "@/server/generators/har-entries";
import type { GeneratedScript } from "./from-tester";
import { concat, expr, lit, type Text } from "./js";
import { k6OptionsFor } from "./load-options";
import { ScriptInputError } from "./script-input-error";
import { countRequests, type RequestBody, type ScriptRequest, type Step, writeScript } from "./script-writer";
import { EnvTable } from "./variables";

export interface HarScriptInput {
  har: unknown;
  options?: PerfLoadOptions;
  includeStatic?: boolean;
  thinkTime?: boolean;
}

const DROPPED = new Set(["host", "content-length", "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "cookie", "accept-encoding"]);
const STATIC_TYPES = new Set(["image", "stylesheet", "script", "font", "media", "manifest", "texttrack"]);
const STATIC_PATH = /\.(png|jpe?g|gif|svg|ico|webp|avif|bmp|css|js|mjs|map|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|wav)$/i;
const STATIC_MIME = /^(image|font|audio|video)\/|^text\/css|javascript/i;
const MAX_THINK_SECONDS = 60;
const METHOD = /^[A-Z]+$/;

function isStatic(e: HarLogEntry, url: URL): boolean {
  if (e.request.method.toUpperCase() !== "GET") return false;
  return STATIC_TYPES.has((e._resourceType ?? "").toLowerCase()) || STATIC_PATH.test(url.pathname) || STATIC_MIME.test(e.response.content.mimeType ?? "");
}

function skipReason(e: HarLogEntry, url: URL | undefined): string | undefined {
  if (!url) return `"${e.request.url.slice(0, 100)}" is not a URL`;
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} is not HTTP(S)`;
  const method = e.request.method.toUpperCase();
  if (method === "CONNECT") return "a CONNECT (a proxy tunnel)";
  if (!METHOD.test(method)) return `"${method.slice(0, 20)}" is not an HTTP method`;
  const upgrade = e.request.headers.some((h) => h.name.toLowerCase() === "upgrade" && /websocket/i.test(h.value));
  if (upgrade || e.response.status === 101 || e._resourceType === "websocket") return "a WebSocket (not supported by the load engine yet)";
  return undefined;
}

const startOf = (e: HarLogEntry) => (e.startedDateTime ? Date.parse(e.startedDateTime) : NaN);

interface Counts {
  cookies: number;
  credentials: boolean;
  unrecordedBodies: number;
}

function bodyOf(e: HarLogEntry, headers: [Text, Text][], counts: Counts): RequestBody | undefined {
  const post = e.request.postData;
  const hasType = headers.some(([k]) => k.length === 1 && "text" in k[0] && k[0].text.toLowerCase() === "content-type");
  const addType = () => post?.mimeType && !hasType && headers.push([lit("Content-Type"), lit(post.mimeType)]);
  if (post?.text) {
    addType();
    return { kind: "text", text: lit(post.text) };
  }
  if (post?.params?.length) {
    if (/multipart\//i.test(post.mimeType ?? "")) {
      counts.unrecordedBodies++;
      return undefined;
    }
    return { kind: "form", fields: post.params.map((p) => [p.name, lit(p.value ?? "")]) };
  }
  if ((e.request.bodySize ?? 0) > 0) counts.unrecordedBodies++;
  return undefined;
}

function requestOf(e: HarLogEntry, url: URL, base: string | undefined, counts: Counts): ScriptRequest {
  const headers: [Text, Text][] = [];
  const byName = new Map<string, [Text, Text]>();
  for (const h of e.request.headers) {
    const lower = h.name.toLowerCase();
    if (h.name.startsWith(":") || DROPPED.has(lower)) {
      if (lower === "cookie") counts.cookies++;
      continue;
    }
    if (lower === "authorization" || lower === "proxy-authorization" || lower === "x-api-key") counts.credentials = true;
    const seen = byName.get(lower);
    if (seen) seen[1] = concat(seen[1], lit(`, ${h.value}`));
    else {
      const pair: [Text, Text] = [lit(h.name), lit(h.value)];
      byName.set(lower, pair);
      headers.push(pair);
    }
  }
  const body = bodyOf(e, headers, counts);
  const method = e.request.method.toUpperCase();
  const rest = `${url.pathname}${url.search}`;
  const status = e.response.status;
  return {
    label: `${method} ${decodeSafe(url.pathname)}`,
    tagName: false,
    method,
    url: base && url.origin === base ? concat(expr("__ENV.BASE_URL"), lit(rest)) : lit(url.href),
    headers,
    ...(body ? { body } : {}),
    ...(status >= 300 && status < 400 ? { redirects: 0 } : {}),
    checks: status >= 100 && status <= 599 ? [{ kind: "status", equals: [status] }] : [],
  };
}

function decodeSafe(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

export function scriptFromHar(input: HarScriptInput): GeneratedScript {
  const { pages, entries } = readHarLog(input.har);
  const warnings: GeneratedScript["warnings"] = [];
  const kept: { entry: HarLogEntry; url: URL; at: number }[] = [];
  let statics = 0;
  entries.forEach((entry, i) => {
    let url: URL | undefined;
    try {
      url = new URL(entry.request.url);
    } catch {}
    const reason = skipReason(entry, url);
    if (reason) return void warnings.push({ message: `skipped: ${reason}`, pointer: `/log/entries/${i}` });
    if (!input.includeStatic && isStatic(entry, url!)) return void statics++;
    kept.push({ entry, url: url!, at: i });
  });
  if (statics) warnings.push({ message: `${statics} static asset request${statics === 1 ? "" : "s"} (images, style sheets, scripts, fonts, media) left out; includeStatic keeps them` });
  if (!kept.length) {
    const message = `the HAR has no HTTP(S) request to load test${statics ? " but static assets (includeStatic keeps them)" : ""}`;
    throw new ScriptInputError(message, [{ message, pointer: "/log/entries" }]);
  }

  return build(kept, pages, input, warnings);
}

function build(kept: { entry: HarLogEntry; url: URL; at: number }[], pages: { id: string; title?: string }[], input: HarScriptInput, warnings: GeneratedScript["warnings"]): GeneratedScript {
  const table = new EnvTable();
  const origins = new Map<string, number>();
  for (const k of kept) origins.set(k.url.origin, (origins.get(k.url.origin) ?? 0) + 1);
  const base = [...origins].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (base) table.nameFor("BASE_URL", { value: base, secret: false });

  const titles = new Map(pages.map((p) => [p.id, p.title?.trim() || p.id]));
  const counts: Counts = { cookies: 0, credentials: false, unrecordedBodies: 0 };
  const steps: Step[] = [];
  let group: { page: string; steps: Step[]; end: number } | undefined;
  for (const { entry, url } of kept) {
    const page = entry.pageref;
    const request: Step = { kind: "request", request: requestOf(entry, url, base, counts) };
    const start = startOf(entry);
    const end = start + (entry.time ?? 0);
    if (page === undefined) {
      group = undefined;
      steps.push(request);
      continue;
    }
    if (group?.page !== page) {
      if (group && input.thinkTime !== false && Number.isFinite(start) && Number.isFinite(group.end)) {
        const pause = Math.min(MAX_THINK_SECONDS, Math.max(0, (start - group.end) / 1000));
        if (pause >= 0.1) steps.push({ kind: "sleep", seconds: Math.round(pause * 10) / 10 });
      }
      group = { page, steps: [], end: -Infinity };
      steps.push({ kind: "group", name: titles.get(page) ?? page, steps: group.steps });
    }
    group.steps.push(request);
    if (Number.isFinite(end)) group.end = Math.max(group.end, end);
  }
  if (counts.cookies) warnings.push({ message: `the recorded Cookie header was left out of ${counts.cookies} request${counts.cookies === 1 ? "" : "s"}: a recorded session would be replayed by every VU` });
  if (counts.credentials) warnings.push({ message: "the recording's Authorization / API key headers are written into the script as recorded: replace them with __ENV values before sharing it" });
  if (counts.unrecordedBodies) warnings.push({ message: `${counts.unrecordedBodies} request bod${counts.unrecordedBodies === 1 ? "y was" : "ies were"} not recorded as text (binary or multipart): sent without a body` });

  const options = k6OptionsFor(input.options, countRequests(steps));
  const script = writeScript({
    header: ["k6 load test generated by polymock from a HAR recording.", "Pages are groups; the pauses between them are the recorded user's."],
    options,
    env: table,
    steps,
    ...(input.options?.sleep ? { sleepAfterIteration: input.options.sleep } : {}),
  });
  return { script, options, variables: [...table.variables.values()], warnings, env: {} };
}
