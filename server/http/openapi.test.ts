// The OpenAPI document and the route handlers list the same operations: every
// method a route file under app/ exports is documented, and every documented
// method has a route file exporting it. (What each operation answers is
// checked against real handlers in openapi-responses.db.test.ts.)
import { describe, expect, it } from "vitest";
import { apiRouteFiles, documentedOperations, loadHandlers, openApiDoc } from "@/server/testing/api-routes";

describe("OpenAPI document", () => {
  it("is OpenAPI 3 and lists the API", () => {
    expect(openApiDoc.openapi).toMatch(/^3\.0\./);
    expect(apiRouteFiles().length).toBeGreaterThan(20);
  });

  it("documents every method every route file exports, and nothing else", async () => {
    const handled = [...(await loadHandlers()).keys()].sort();
    const documented = documentedOperations().sort();
    expect(handled.filter((k) => !documented.includes(k)), "exported by a route file but not documented").toEqual([]);
    expect(documented.filter((k) => !handled.includes(k)), "documented but no route file exports it").toEqual([]);
  });

  it("names each parameter of an operation once", () => {
    for (const [p, ops] of Object.entries(openApiDoc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const names = (op.parameters as { in: string; name: string }[]).map((x) => `${x.in}:${x.name}`);
        expect(names.filter((n, i) => names.indexOf(n) !== i), `${method.toUpperCase()} ${p}`).toEqual([]);
      }
    }
  });

  it("closes every success response object, so a leaked field is an error", () => {
    const open: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (!node || typeof node !== "object") return;
      const n = node as Record<string, unknown>;
      if (n.type === "object" && n.properties && n.additionalProperties !== false) open.push(where);
      for (const [k, v] of Object.entries(n)) walk(v, `${where}/${k}`);
    };
    for (const [p, ops] of Object.entries(openApiDoc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, r] of Object.entries(op.responses as Record<string, { content?: Record<string, { schema: unknown }> }>)) {
          if (Number(status) < 300) walk(r.content?.["application/json"]?.schema, `${method.toUpperCase()} ${p} ${status}`);
        }
      }
    }
    expect(open).toEqual([]);
  });
});


describe("OpenAPI document: the nats mock block", () => {
  it("documents nats with its subject, serverName, queueGroup, headers, conditions and outputSubject", () => {
    const found: string[][] = [];
    const walk = (node: unknown) => {
      if (!node || typeof node !== "object") return;
      const n = node as Record<string, unknown>;
      const nats = (n.properties as Record<string, { properties?: Record<string, unknown> }> | undefined)?.nats;
      if (nats?.properties) found.push(Object.keys(nats.properties));
      for (const v of Object.values(n)) walk(v);
    };
    walk(openApiDoc);
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toEqual(expect.arrayContaining(["subject", "serverName", "queueGroup", "headers", "conditions", "outputSubject"]));
  });
});
