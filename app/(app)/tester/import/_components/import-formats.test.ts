// The wizard offers every import of the spec's table, and calls each one's endpoint with the preview flag.
import { describe, expect, it } from "vitest";
import { IMPORT_FORMATS, importFormat, importUrl, isEnvironmentAnswer } from "./import-formats";

describe("import formats", () => {
  it("lists every import route of the spec, once", () => {
    expect(IMPORT_FORMATS.map((f) => f.id)).toEqual(["postman", "postman-env", "openapi", "wsdl", "grpc", "graphql", "mcp", "har", "soapui", "jmx", "mockarty"]);
    expect(IMPORT_FORMATS.filter((f) => f.creates === "environment").map((f) => f.id)).toEqual(["postman-env"]);
  });

  it.each([
    ["postman", "team", true, "/api/v1/api-tester/import/postman?namespace=team&preview=true"],
    ["postman-env", "team", false, "/api/v1/api-tester/import/postman-env?namespace=team"],
    ["mockarty", undefined, false, "/api/v1/api-tester/import/mockarty?"],
  ])("%s → its endpoint", (format, ns, preview, url) => {
    expect(importUrl(format, ns, preview)).toBe(url);
  });

  it("an unknown id falls back to the first format; environment answers are told apart", () => {
    expect(importFormat("nope").id).toBe("postman");
    expect(isEnvironmentAnswer({ environmentId: null, name: "e", source: "postman-env", imported: { variables: 0, secrets: 0 }, variables: [], warnings: [], preview: true })).toBe(true);
  });
});
