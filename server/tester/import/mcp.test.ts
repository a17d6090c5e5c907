// MCP lists → collection of JSON-RPC calls.
import { describe, expect, it } from "vitest";
import { mcpToCollection } from "./mcp";
import { requestsOf } from "./test-helpers";

const LISTS = {
  serverInfo: { name: "weather" },
  tools: [
    { name: "get_forecast", description: "Forecast", inputSchema: { type: "object", properties: { city: { type: "string", example: "Oslo" }, days: { type: "integer", minimum: 1 } }, required: ["city"] } },
    { name: "ping", inputSchema: { type: "object" } },
  ],
  prompts: [{ name: "summary", arguments: [{ name: "topic" }] }],
  resources: [{ uri: "file:///readme.md", name: "readme" }],
};

describe("mcpToCollection", () => {
  it("gives initialize, tools/list and one tools/call per tool with arguments sampled from the input schema", () => {
    const { document } = mcpToCollection(LISTS, { url: "https://mcp.example/mcp" });
    expect(document.collection.name).toBe("weather");
    const requests = requestsOf(document.items);
    expect(requests.map((r) => r.name)).toEqual(["initialize", "notifications/initialized", "tools/list", "get_forecast", "ping", "summary", "readme"]);
    const init = requests[0].request;
    expect(JSON.parse(init.body.raw!)).toMatchObject({ jsonrpc: "2.0", method: "initialize", params: { protocolVersion: expect.any(String) } });
    expect(init.scripts.test).toContain('pm.collectionVariables.set("mcpSessionId"');
    const call = requests.find((r) => r.name === "get_forecast")!;
    expect(call.folders).toEqual(["Tools"]);
    expect(call.request).toMatchObject({ method: "POST", url: "{{mcpUrl}}" });
    expect(call.request.headers).toContainEqual(expect.objectContaining({ key: "Mcp-Session-Id", value: "{{mcpSessionId}}" }));
    expect(JSON.parse(call.request.body.raw!)).toMatchObject({ method: "tools/call", params: { name: "get_forecast", arguments: { city: "Oslo", days: 1 } } });
    expect(JSON.parse(requests.find((r) => r.name === "readme")!.request.body.raw!)).toMatchObject({ method: "resources/read", params: { uri: "file:///readme.md" } });
    expect(document.collection.variables).toContainEqual(expect.objectContaining({ key: "mcpUrl", value: "https://mcp.example/mcp" }));
  });

  it("refuses what is not an MCP list, with the JSON pointer", () => {
    expect(() => mcpToCollection({ tools: [{ description: "no name" }] })).toThrow(expect.objectContaining({ location: { pointer: "/tools/0/name" } }));
    expect(() => mcpToCollection({ hello: 1 })).toThrow(/not an MCP list/);
  });
});
