// OpenAPI → collection on the Swagger Petstore (3.0, the real document; 3.1) and a Swagger 2.0 document.
import { describe, expect, it } from "vitest";
import { parseDocumentText } from "@/server/generators/document-text";
import { GeneratorInputError } from "@/server/generators/input-error";
import { openapiToCollection } from "./openapi";
import { generatorFixture, requestsOf } from "./test-helpers";

describe("openapiToCollection", () => {
  it("maps the Petstore 3.0: a folder per tag, a request per operation, {{baseUrl}}, path params, bodies and auth", async () => {
    const { document } = await openapiToCollection(parseDocumentText(generatorFixture("petstore-3.0.yaml")));
    expect(document.collection.name).toBe("Swagger Petstore - OpenAPI 3.0");
    expect(document.items.map((i) => i.name)).toEqual(["pet", "store", "user"]);
    const requests = requestsOf(document.items);
    expect(requests).toHaveLength(19);
    const vars = Object.fromEntries(document.collection.variables.map((v) => [v.key, v]));
    expect(vars.baseUrl.value).toBe("https://petstore3.swagger.io/api/v3");
    expect(vars.petId.value).toBe("0");

    const byName = (n: string) => requests.find((r) => r.name === n)!.request;
    const find = byName("Find pet by ID.");
    expect(find).toMatchObject({ method: "GET", url: "{{baseUrl}}/pet/{{petId}}" });
    // The operation names api_key first: an API key header from the apiKey variable.
    expect(find.auth).toEqual({ type: "apikey", apikey: { key: "api_key", value: "{{apiKey}}", in: "header" } });
    expect(vars.apiKey.secret).toBe(true);

    const add = byName("Add a new pet to the store.");
    expect(add.method).toBe("POST");
    expect(add.headers).toContainEqual(expect.objectContaining({ key: "Content-Type", value: "application/json" }));
    expect(JSON.parse(add.body.raw!)).toMatchObject({ id: 10, name: "doggie", status: "available" });
    // OAuth 2 implicit has no client-credentials flow: a bearer token variable instead.
    expect(add.auth).toEqual({ type: "bearer", bearer: { token: "{{accessToken}}" } });

    const byStatus = byName("Finds Pets by status.");
    expect(byStatus.params).toEqual([expect.objectContaining({ key: "status", value: "available", enabled: false })]);
  });

  it("reads OpenAPI 3.1 (type arrays, examples)", async () => {
    const { document } = await openapiToCollection(parseDocumentText(generatorFixture("petstore-3.1.yaml")));
    const requests = requestsOf(document.items);
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((r) => r.request.url.startsWith("{{baseUrl}}/"))).toBe(true);
  });

  it("maps Swagger 2.0: host/basePath, body parameters, formData, basic auth", async () => {
    const swagger = {
      swagger: "2.0",
      info: { title: "Shop", version: "1" },
      host: "shop.example",
      basePath: "/v1",
      schemes: ["https"],
      securityDefinitions: { basicAuth: { type: "basic" } },
      security: [{ basicAuth: [] }],
      paths: {
        "/orders/{orderId}": {
          parameters: [{ name: "orderId", in: "path", required: true, type: "integer", example: 7 }],
          put: {
            tags: ["orders"],
            operationId: "updateOrder",
            consumes: ["application/json"],
            parameters: [
              { name: "body", in: "body", schema: { type: "object", properties: { qty: { type: "integer", example: 2 } } } },
              { name: "X-Trace", in: "header", required: true, type: "string", default: "abc" },
            ],
            responses: { 200: { description: "ok" } },
          },
        },
        "/login": { post: { consumes: ["application/x-www-form-urlencoded"], parameters: [{ name: "user", in: "formData", type: "string", required: true }], security: [], responses: { 204: { description: "ok" } } } },
      },
    };
    const { document } = await openapiToCollection(swagger);
    expect(document.collection.variables.find((v) => v.key === "baseUrl")?.value).toBe("https://shop.example/v1");
    expect(document.collection.auth).toEqual({ type: "basic", basic: { username: "{{username}}", password: "{{password}}" } });
    const [update, login] = requestsOf(document.items);
    expect(update.folders).toEqual(["orders"]);
    expect(update.request).toMatchObject({ method: "PUT", url: "{{baseUrl}}/orders/{{orderId}}" });
    expect(JSON.parse(update.request.body.raw!)).toEqual({ qty: 2 });
    expect(update.request.headers).toContainEqual(expect.objectContaining({ key: "X-Trace", value: "abc", enabled: true }));
    expect(login.request.body).toMatchObject({ mode: "urlencoded", urlencoded: [{ key: "user", enabled: true }] });
    expect(login.request.auth).toEqual({ type: "none" });
  });

  it("refuses a document that is not OpenAPI, naming where", async () => {
    await expect(openapiToCollection({ openapi: "4.0.0", paths: {} })).rejects.toMatchObject({ location: { pointer: "/openapi" } });
    await expect(openapiToCollection({ hello: 1 })).rejects.toBeInstanceOf(GeneratorInputError);
  });
});
