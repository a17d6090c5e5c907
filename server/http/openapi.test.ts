// Every route handler under app/api/v1 (and the health/metrics/swagger routes)
// must be in the OpenAPI document with each method it exports.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "./openapi";

const root = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) return routeFiles(p);
    return entry === "route.ts" ? [p] : [];
  });
}

function toOpenApiPath(file: string): string {
  const rel = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep);
  return "/" + rel.filter((s) => !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/");
}

const documented = routeFiles(path.join(root, "app")).filter((f) => {
  const p = toOpenApiPath(f);
  return p.startsWith("/api/v1/") || p.startsWith("/health") || p === "/metrics" || p === "/swagger/doc.json";
});

describe("OpenAPI document", () => {
  const doc = buildOpenApi("test") as { openapi: string; paths: Record<string, Record<string, unknown>> };

  it("is OpenAPI 3", () => {
    expect(doc.openapi).toMatch(/^3\.0\./);
    expect(documented.length).toBeGreaterThan(20);
  });

  it.each(documented.map((f) => [toOpenApiPath(f), f]))("documents every method of %s", async (apiPath, file) => {
    const mod = (await import(file)) as Record<string, unknown>;
    const exported = METHODS.filter((m) => typeof mod[m] === "function");
    expect(exported.length).toBeGreaterThan(0);
    for (const method of exported) {
      expect(doc.paths[apiPath]?.[method.toLowerCase()], `${method} ${apiPath} is missing from the OpenAPI document`).toBeDefined();
    }
  });

  it("lists no operation that has no route handler", () => {
    const handled = new Set(documented.map(toOpenApiPath));
    for (const p of Object.keys(doc.paths)) expect(handled.has(p), `${p} is documented but has no route.ts`).toBe(true);
  });
});
