// `polymock run` beside `newman run` on the same Postman export and
// environment (Newman's own fixture: collection and environment variables,
// collection and folder scripts, collection-level basic auth and noauth
// overrides), both as CI would start them, against one local node:http
// server standing in for postman-echo: the same exit code and the same
// summary table rows (iterations, requests, test-scripts, prerequest-scripts,
// assertions; executed and failed).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(root, "server/tester/import/__fixtures__/newman");
const dir = mkdtempSync(path.join(tmpdir(), "polymock-newman-"));
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url!, base);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === "/basic-auth") {
        const ok = req.headers.authorization === `Basic ${Buffer.from("postman:password").toString("base64")}`;
        return ok ? json(200, { authenticated: true }) : (res.writeHead(401), res.end("Unauthorized"));
      }
      json(200, { args: Object.fromEntries(url.searchParams), data: Buffer.concat(chunks).toString(), headers: req.headers, url: `${base}${req.url}` });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function localCopy(name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, readFileSync(path.join(fixtures, name), "utf8").replaceAll("https://postman-echo.com", base));
  return file;
}

function start(bin: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let stdout = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stdout += c));
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

function table(stdout: string): Record<string, [number, number]> {
  const rows: Record<string, [number, number]> = {};
  for (const m of stdout.matchAll(/│\s*(iterations|requests|test-scripts|prerequest-scripts|assertions) │\s*(\d+) │\s*(\d+) │/g)) rows[m[1]] = [Number(m[2]), Number(m[3])];
  return rows;
}

it("gives the exit code and summary table newman gives on the same Postman collection and environment", async () => {
  const collection = localCopy("inherited-entities.postman_collection.json");
  const environment = localCopy("inherited-entities.postman_environment.json");
  const newman = await start(path.join(root, "node_modules/newman/bin/newman.js"), ["run", collection, "-e", environment, "--color", "off"]);
  const polymock = await start(path.join(root, "bin/polymock.mjs"), ["run", collection, "-e", environment, "--no-color"]);
  const expected = table(newman.stdout);
  expect(Object.keys(expected), newman.stdout).toHaveLength(5);
  expect(table(polymock.stdout), polymock.stdout).toEqual(expected);
  expect(polymock.code).toBe(newman.code);
  // The requests the summary counts are the same ones, in the same order.
  const arrows = (out: string) => [...out.matchAll(/^(?:\x1b\[[\d;]*m)?([→↳❏] .+?)(?:\x1b\[[\d;]*m)?$/gm)].map((m) => m[1]);
  expect(arrows(polymock.stdout)).toEqual(arrows(newman.stdout));
}, 120_000);
