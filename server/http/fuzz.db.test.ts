// Seeded, bounded fuzzing of every documented operation (fast-check over the
// OpenAPI document): malformed bodies (broken JSON, wrong types, unpaired
// surrogates, NUL), path parameters (malformed percent-encoding, odd
// Unicode) and headers, sent to the real route handlers with a real
// database. Any 500 or undocumented 5xx, or an error body outside the
// envelope {error, code, request_id}, fails the test with the request that caused it.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { documentedOperations, loadHandlers, operation, type RouteHandler } from "@/server/testing/api-routes";
import { makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const SEED = 20261123;
const RUNS_PER_OPERATION = 6;
// The event stream never ends on success; its malformed requests are still fuzzed, but a 200 is read as headers only.
const STREAMING = new Set(["GET /api/v1/events"]);

let handlers: Map<string, RouteHandler>;
let cookie: string;
let adminId: string;
const statuses: number[] = [];

beforeAll(async () => {
  handlers = await loadHandlers();
  const { user } = await makeUser({ role: "admin", username: "fuzz-admin", namespaces: { svc: "owner" } });
  adminId = user.id;
  cookie = await sessionCookie(user.id);
});

/** Text that breaks parsers: malformed percent-encoding, unpaired surrogates, NUL, control and very long text. */
const nasty = fc.oneof(
  fc.constantFrom("%", "%zz", "%E0%A4%A", "%C0%AF", "%FF%FE", "%00", "%ED%A0%80", "\ud800", "\udfff", "a\u0000b", "..", "../../etc/passwd", "\u202e", "😀", " ", "", "null", "-1", "1e309", "9".repeat(400)),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
);

/** Bodies: broken JSON, JSON of the wrong shape, JSON with unpaired surrogate escapes or NUL, non-JSON bytes. */
const body = fc.oneof(
  fc.constantFrom("", "{", "[", "{\"a\":", "nul", "\"\\ud800\"", "{\"name\":\"\\udc00x\"}", "{\"id\":\"\\u0000\"}", "[1,2,", "{\"__proto__\":{\"x\":1}}", "{\"constructor\":{\"prototype\":{}}}", "1".repeat(5000)),
  fc.json({ maxDepth: 3 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  nasty.map((s) => JSON.stringify({ id: s, name: s, key: s, value: s, email: s, username: s })),
  nasty,
);

const contentType = fc.constantFrom("application/json", "application/json; charset=utf-8", "text/plain", "multipart/form-data; boundary=x", "multipart/form-data", "application/x-www-form-urlencoded", "", "a/b/c", "application/json; charset=latin1");

const headerValue = fc.oneof(fc.constantFrom("", "%E0%A4%A", "%00", "x".repeat(300), "sandbox", "svc", "absent-ns", "Bearer ", "Bearer x.y.z"), fc.string({ unit: "grapheme-ascii", maxLength: 30 }));

interface FuzzRequest {
  params: Record<string, string>;
  query: string;
  body: string | undefined;
  headers: Record<string, string>;
}

/** Bodies shaped like the operation's request schema (its field names, so strict parsing passes) with wrong or hostile values. */
function schemaShapedBody(op: Record<string, any>): fc.Arbitrary<string> | null {
  const props = op.requestBody?.content?.["application/json"]?.schema?.properties as Record<string, unknown> | undefined;
  if (!props || Object.keys(props).length === 0) return null;
  const value = fc.oneof(nasty, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(null, -1, 1e308, true, [], {}, "svc", "sandbox", "00000000-0000-0000-0000-000000000000"));
  const record = fc.record(Object.fromEntries(Object.keys(props).map((k) => [k, value])), { requiredKeys: [] });
  return record.map((v) => JSON.stringify(v));
}

function requestFor(key: string): fc.Arbitrary<FuzzRequest> {
  const op = operation(key);
  const shaped = schemaShapedBody(op);
  const pathParams = (op.parameters as { in: string; name: string }[]).filter((p) => p.in === "path").map((p) => p.name);
  const queryParams = (op.parameters as { in: string; name: string }[]).filter((p) => p.in === "query").map((p) => p.name);
  return fc.record({
    params: fc.record(Object.fromEntries(pathParams.map((n) => [n, nasty]))) as fc.Arbitrary<Record<string, string>>,
    query: fc.array(fc.tuple(fc.constantFrom(...queryParams, "zz", "namespace"), fc.oneof(nasty, fc.constantFrom("svc", "sandbox", "true", "0", "-5", "99999999999"))), { maxLength: 4 }).map((pairs) =>
      pairs.map(([k, v]) => `${encodeURIComponent(k)}=${/^%/.test(v) ? v : encodeURIComponent(v.replace(/[\ud800-\udfff]/g, "%ED%A0%80"))}`).join("&"),
    ),
    body: fc.option(shaped ? fc.oneof(shaped, body) : body, { nil: undefined }),
    headers: fc.record(
      {
        "content-type": contentType,
        "x-service-namespace": headerValue,
        "x-file-name": headerValue,
        "idempotency-key": headerValue,
        authorization: headerValue,
      },
      { requiredKeys: [] },
    ),
  });
}

/** Puts a raw path segment in the URL as a client would send it: percent signs kept, other bytes encoded. */
function rawSegment(value: string): string {
  return /%/.test(value) ? value.replace(/[^%A-Za-z0-9._~-]/g, (c) => encodeURIComponent(c.replace(/[\ud800-\udfff]/g, "\ufffd"))) : encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "\ufffd"));
}

async function send(key: string, r: FuzzRequest): Promise<{ status: number; contentType: string | null; text: string } | null> {
  const [method, path] = key.split(" ");
  // Logging out ends the session the other operations are fuzzed with; it gets one of its own.
  const session = key === "POST /api/v1/auth/logout" ? await sessionCookie(adminId) : cookie;
  const url = `http://localhost:5770${path.replace(/\{(\w+)\}/g, (_, n: string) => rawSegment(r.params[n] ?? "x"))}${r.query ? `?${r.query}` : ""}`;
  let req: Request;
  try {
    const headers = new Headers({ cookie: session, "x-polymock-peer": "127.0.0.1" });
    for (const [k, v] of Object.entries(r.headers)) headers.set(k, v);
    req = new Request(url, { method, headers, body: method === "GET" || r.body === undefined ? undefined : r.body });
  } catch {
    return null; // not a request any HTTP client can send (e.g. a header value outside Latin-1)
  }
  const res = await handlers.get(key)!(req, { params: Promise.resolve(r.params) });
  const ct = res.headers.get("content-type");
  const text = STREAMING.has(key) && res.status < 300 ? (await res.body?.cancel(), "") : await res.text();
  return { status: res.status, contentType: ct, text };
}

function problemOf(key: string, answer: { status: number; contentType: string | null; text: string }): string | null {
  // A 5xx the document promises (503 while e-mail is not configured, 502 from a refusing SMTP server) is the contract; any other is a crash.
  const documented = answer.status !== 500 && String(answer.status) in operation(key).responses;
  if (answer.status >= 500 && !documented) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status < 400) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return `answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`;
  }
  const e = parsed as Record<string, unknown>;
  if (typeof e.error !== "string" || typeof e.code !== "string" || typeof e.request_id !== "string") return `answered ${answer.status} outside the error envelope: ${answer.text.slice(0, 200)}`;
  if (!answer.contentType?.startsWith("application/json")) return `answered ${answer.status} as ${answer.contentType}`;
  return null;
}

describe("fuzzing every documented operation", () => {
  it.each(documentedOperations())("%s never answers 5xx or an error outside the envelope", async (key) => {
    await fc.assert(
      fc.asyncProperty(requestFor(key), async (r) => {
        const answer = await send(key, r);
        if (!answer) return;
        statuses.push(answer.status);
        const problem = problemOf(key, answer);
        expect(problem, `${key} ${JSON.stringify(r)}`).toBeNull();
      }),
      { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
    );
  });

  it("reached past authentication (the fuzzing session stayed valid throughout)", () => {
    const unauthorized = statuses.filter((s) => s === 401).length;
    expect(statuses.length).toBeGreaterThan(documentedOperations().length);
    expect(unauthorized, `401 for ${unauthorized} of ${statuses.length} requests`).toBeLessThan(statuses.length / 2);
    expect(statuses.some((s) => s < 300)).toBe(true);
  });
});
