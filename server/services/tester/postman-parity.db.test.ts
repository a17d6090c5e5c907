// Newman parity (issue 16): a Postman export imported through the route and
// run with our runner gives the same per-request assertion names and
// pass/fail results as Newman (its library API, newman.run) on the same file.
// Both run against one local node:http server standing in for postman-echo
// (the fixtures' host is rewritten to it). The collections are Newman's own
// test fixtures (__fixtures__/newman): collection and environment
// variables, collection and folder scripts, nested folders, collection-level
// basic auth and noauth overrides, legacy `tests[...]` and pm.test/pm.expect.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import newman from "newman";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as executeCollectionRoute from "@/app/api/v1/api-tester/collections/[id]/execute/route";
import * as postmanRoute from "@/app/api/v1/api-tester/import/postman/route";
import * as postmanEnvRoute from "@/app/api/v1/api-tester/import/postman-env/route";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "parity";
let cookie: string;
let server: http.Server;
let base: string;

/** The parts of postman-echo the fixtures use. */
function echo(req: http.IncomingMessage, body: string, res: http.ServerResponse) {
  const url = new URL(req.url!, base);
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(value));
  };
  const args = Object.fromEntries(url.searchParams);
  const headers = req.headers;
  if (url.pathname === "/basic-auth") {
    const ok = req.headers.authorization === `Basic ${Buffer.from("postman:password").toString("base64")}`;
    return ok ? json(200, { authenticated: true }) : (res.writeHead(401), res.end("Unauthorized"));
  }
  if (url.pathname.startsWith("/status/")) return json(Number(url.pathname.slice(8)), { status: Number(url.pathname.slice(8)) });
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(body);
  } catch {}
  const form = /urlencoded/.test(req.headers["content-type"] ?? "") ? Object.fromEntries(new URLSearchParams(body)) : {};
  json(200, { args, data: body, form, json: parsed, headers, url: `${base}${req.url}` });
}

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => echo(req, Buffer.concat(chunks).toString(), res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A fixture with postman-echo replaced by the local server. */
function fixture(name: string): any {
  const raw = readFileSync(path.join(import.meta.dirname, "../../tester/import/__fixtures__/newman", name), "utf8");
  return JSON.parse(raw.replaceAll("https://postman-echo.com", base));
}

interface Outcome {
  name: string;
  tests: { name: string; passed: boolean }[];
}

function runNewman(collection: unknown, environment?: unknown): Promise<Outcome[]> {
  return new Promise((resolve, reject) => {
    newman.run({ collection, environment, reporters: [] }, (err, summary) => {
      if (err) return reject(err);
      resolve(
        summary.run.executions.map((e) => ({
          name: e.item.name,
          tests: (e.assertions ?? []).filter((a) => !a.skipped).map((a) => ({ name: a.assertion, passed: !a.error })),
        })),
      );
    });
  });
}

async function runOurs(collection: unknown, environment?: unknown): Promise<Outcome[]> {
  const imported = await call(postmanRoute.POST, `/api/v1/api-tester/import/postman?namespace=${NS}`, { method: "POST", cookie, body: collection });
  expect([200, 207], imported.text).toContain(imported.status);
  let environmentId: string | null = null;
  if (environment) {
    const env = await call(postmanEnvRoute.POST, `/api/v1/api-tester/import/postman-env?namespace=${NS}`, { method: "POST", cookie, body: environment });
    expect(env.status, env.text).toBe(200);
    environmentId = env.body.environmentId;
  }
  const id = imported.body.collectionId as string;
  const run = await call(executeCollectionRoute.POST, `/api/v1/api-tester/collections/${id}/execute?namespace=${NS}`, { method: "POST", cookie, body: { environmentId }, params: { id } });
  expect(run.status, run.text).toBe(200);
  return run.body.results.map((r: any) => ({
    name: r.name,
    tests: r.tests.filter((t: any) => t.status !== "skipped").map((t: any) => ({ name: t.name, passed: t.status === "passed" })),
  }));
}

describe("a Postman export run by Newman and by the tester gives the same results", () => {
  it("multi-level-folders (v2.0): nested folders in the same run order, the same assertions; one known type difference", async () => {
    const collection = fixture("multi-level-folders-v2.postman_collection.json");
    const expected = await runNewman(collection);
    expect(expected.map((e) => e.name)).toEqual(["F1.R1", "F1.R2", "F1.R3", "F2.F3.R1", "F2.R1", "R1"]);
    expect(expected.every((e) => e.tests.every((t) => t.passed))).toBe(true);
    const ours = await runOurs(collection);
    // Same requests, same order, same assertion names, and the status checks agree.
    const names = (o: Outcome[]) => o.map((e) => [e.name, e.tests.map((t) => t.name)]);
    expect(names(ours)).toEqual(names(expected));
    expect(ours.map((e) => e.tests[0])).toEqual(expected.map((e) => e.tests[0]));
    // Known difference (docs/decisions.md): the fixture's scripts overwrite a number with
    // the legacy postman.setEnvironmentVariable and expect it back as text ('=== "1"');
    // Newman's legacy API casts an overwritten number to text, the tester keeps the number.
    expect(ours.map((e) => e.tests[1].passed)).toEqual([true, false, false, false, false, false]);
  });

  it("inherited-entities: collection/environment variables, collection and folder scripts, collection auth and noauth", async () => {
    const collection = fixture("inherited-entities.postman_collection.json");
    // Digest auth is not supported (the import warns); its two requests are left out of the comparison.
    collection.item = collection.item.filter((i: any) => i.name !== "Request level stuff");
    const folder = collection.item.find((i: any) => i.name === "Folder level stuff");
    delete folder.auth;
    folder.item = folder.item.filter((i: any) => i.name !== "Auth");
    const environment = fixture("inherited-entities.postman_environment.json");
    const expected = await runNewman(collection, environment);
    expect(expected.map((e) => e.name)).toEqual(["Variables", "Auth", "Events", "Event", "Auth override", "Environment override"]);
    expect(expected.every((e) => e.tests.length > 0 && e.tests.every((t) => t.passed))).toBe(true);
    expect(await runOurs(collection, environment)).toEqual(expected);
  });

  it("the sample collection (v2.0): pm.test with pm.expect on the JSON response, string URLs, raw bodies", async () => {
    const collection = fixture("sample-collection.json");
    const expected = await runNewman(collection);
    expect(expected[0].tests).toEqual([
      { name: "expect response be 200", passed: true },
      { name: "expect response json contain args", passed: true },
    ]);
    expect(await runOurs(collection)).toEqual(expected);
  });
});
