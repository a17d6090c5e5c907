// The MCP lists → mocks mapping: every shape MCP sends is read, each entry is
// a valid mock, and the mocks answer (through the real engine) what the
// entry describes: a sample fitting the output schema, a prompt message with
// the call's arguments inserted. Documents follow the examples of the MCP
// specification (2025-06-18, "Tools" and "Prompts").
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { stringify } from "yaml";
import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "@/server/engine/engine";
import { memoryDeps } from "@/server/engine/testing";
import { parseDocumentText } from "./document-text";
import { GeneratorInputError } from "./input-error";
import { argumentPlaceholder, mcpToMocks } from "./mcp";

const WEATHER_OUTPUT = {
  type: "object",
  properties: {
    temperature: { type: "number", description: "Temperature in celsius" },
    conditions: { type: "string", enum: ["sunny", "cloudy", "rain"] },
    humidity: { type: "number", minimum: 0, maximum: 100 },
    observedAt: { type: "string", format: "date-time" },
    station: { $ref: "#/$defs/station" },
  },
  required: ["temperature", "conditions", "humidity", "observedAt", "station"],
  $defs: { station: { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] } },
};
const TOOLS = {
  tools: [
    {
      name: "get_weather",
      title: "Weather Information Provider",
      description: "Get current weather information for a location",
      inputSchema: { type: "object", properties: { location: { type: "string", description: "City name or zip code" } }, required: ["location"] },
    },
    {
      name: "get_weather_data",
      description: "Get structured weather data",
      inputSchema: { type: "object", properties: { location: { type: "string" } }, required: ["location"] },
      outputSchema: WEATHER_OUTPUT,
    },
  ],
};
const PROMPTS = {
  prompts: [
    {
      name: "code_review",
      title: "Request Code Review",
      description: "Asks the LLM to analyze code quality and suggest improvements",
      arguments: [
        { name: "code", description: "The code to review", required: true },
        { name: "target language", required: false },
      ],
    },
  ],
};

const mockOf = (r: Awaited<ReturnType<typeof mcpToMocks>>, id: string) => r.mocks.find((m) => m.mock.id === id)!.mock;

/** Serves one generated mock through the engine: the rendered response body of a call with these arguments. */
async function answer(mock: MockInput & { id: string }, args: Record<string, unknown>) {
  const def = { ...MockInput.parse(mock), id: mock.id, namespace: "ns" } as MockDefinition;
  const ns = buildNamespace("ns", [{ mock: def, sequence: 1, createdAt: 0 }]);
  const mcp = def.mcp!;
  const result = await handle(ns, { namespace: "ns", method: `${mcp.method} ${mcp.tool ?? mcp.prompt ?? mcp.resource}`, path: "/", headers: {}, query: {}, body: args }, memoryDeps(), "mcp");
  if (!result.matched) throw new Error("no match");
  return result.response.body;
}

describe("mcpToMocks", () => {
  it("one valid mock per tool, keeping its schemas; with an output schema the answer is a sample that fits it", async () => {
    const r = await mcpToMocks(TOOLS);
    expect(r.warnings).toEqual([]);
    expect(r.mocks.map((m) => [m.mock.id, m.summary])).toEqual([
      ["mcp-tool-get_weather", "tool get_weather → text echoing the arguments"],
      ["mcp-tool-get_weather_data", "tool get_weather_data → structured content sampled from its output schema"],
    ]);
    for (const m of r.mocks) expect(MockInput.safeParse(m.mock).success, m.mock.id).toBe(true);
    const data = mockOf(r, "mcp-tool-get_weather_data");
    expect(data.mcp).toEqual({ method: "tools/call", tool: "get_weather_data", description: "Get structured weather data", inputSchema: TOOLS.tools[1].inputSchema, outputSchema: WEATHER_OUTPUT });
    const served = await answer(data, { location: "Oslo" });
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    const validate = ajv.compile(WEATHER_OUTPUT);
    expect(validate(served), JSON.stringify(validate.errors)).toBe(true);
    expect((served as { observedAt: string }).observedAt).not.toMatch(/^\$\.fake/);
  });

  it("a tool without an output schema answers its name and the call's arguments", async () => {
    const r = await mcpToMocks(TOOLS);
    expect(await answer(mockOf(r, "mcp-tool-get_weather"), { location: "Oslo", days: 2 })).toEqual({
      tool: "get_weather",
      message: "Mocked answer of get_weather: Get current weather information for a location",
      arguments: { location: "Oslo", days: 2 },
    });
  });

  it("a prompt lists its arguments and answers a user message with the call's arguments inserted", async () => {
    const r = await mcpToMocks(PROMPTS);
    const mock = r.mocks[0].mock;
    expect(r.mocks[0].summary).toBe("prompt code_review(code, target language) → one user message");
    expect(mock.mcp).toEqual({ method: "prompts/get", prompt: "code_review", description: PROMPTS.prompts[0].description });
    expect((mock.response as { payload: { arguments: unknown } }).payload.arguments).toEqual([
      { name: "code", description: "The code to review", required: true },
      { name: "target language", required: false },
    ]);
    const served = (await answer(mock, { code: "x = 1", "target language": "Go" })) as { messages: { text: string }[] };
    expect(served.messages).toEqual([{ role: "user", text: "Asks the LLM to analyze code quality and suggest improvements\n\ncode: x = 1\ntarget language: Go" }]);
  });

  it("resources answer placeholder contents of their MIME type", async () => {
    const r = await mcpToMocks({ resources: [{ uri: "file:///project/README.md", name: "README", mimeType: "text/markdown" }, { uri: "db://config", mimeType: "application/json" }, { uri: "img://logo", mimeType: "image/png" }] });
    expect(r.mocks[0].mock).toMatchObject({ id: "mcp-resource-file-project-readme.md", mcp: { method: "resources/read", resource: "file:///project/README.md", description: "README" }, response: { payload: "Mocked contents of README", headers: { "Content-Type": ["text/markdown"] } } });
    expect(r.mocks[1].mock.response).toMatchObject({ payload: { uri: "db://config" } });
    expect(r.warnings).toEqual([{ pointer: "/resources/2/mimeType", message: "image/png contents are served as text: edit the mock's payload" }]);
  });

  it("reads every shape MCP sends: a JSON-RPC response, an array of them, the lists combined, and YAML", async () => {
    const combined = await mcpToMocks({ ...TOOLS, ...PROMPTS });
    const ids = combined.mocks.map((m) => m.mock.id);
    expect(ids).toEqual(["mcp-tool-get_weather", "mcp-tool-get_weather_data", "mcp-prompt-code_review"]);
    const rpc = [
      { jsonrpc: "2.0", id: 1, result: TOOLS },
      { jsonrpc: "2.0", id: 2, result: PROMPTS },
    ];
    expect((await mcpToMocks(rpc)).mocks).toEqual(combined.mocks);
    expect((await mcpToMocks(parseDocumentText(stringify({ jsonrpc: "2.0", id: 1, result: TOOLS })))).mocks.map((m) => m.mock.id)).toEqual(ids.slice(0, 2));
  });

  it("ids are stable and come from the server's name when the lists carry it; the options reach every mock", async () => {
    const named = await mcpToMocks({ serverInfo: { name: "Weather Server" }, ...TOOLS });
    expect(named.mocks[0].mock.id).toBe("weather-server-tool-get_weather");
    const r = await mcpToMocks(TOOLS, { idPrefix: "wx", pathPrefix: "/agents/wx", tags: ["mcp"] });
    expect(r.mocks[1].mock).toMatchObject({ id: "wx-tool-get_weather_data", pathPrefix: "/agents/wx", tags: ["mcp"] });
  });

  it("warns of what it leaves out: a repeated name, a missing inputSchema, another page, resource templates", async () => {
    const r = await mcpToMocks({ tools: [{ name: "a", inputSchema: { type: "object" } }, { name: "a", inputSchema: { type: "object" } }, { name: "b" }], nextCursor: "2", resourceTemplates: [] });
    expect(r.mocks.map((m) => m.mock.id)).toEqual(["mcp-tool-a", "mcp-tool-b"]);
    expect((r.mocks[1].mock.mcp as { inputSchema: unknown }).inputSchema).toEqual({ type: "object" });
    expect(r.warnings.map((w) => w.pointer)).toEqual(["/nextCursor", "/resourceTemplates", "/tools/1", "/tools/2"]);
  });

  it.each([
    [{ hello: 1 }, /not an MCP list/, {}],
    ["just text", /not an MCP list/, {}],
    [{ tools: { name: "x" } }, /tools must be an array/, { pointer: "/tools" }],
    [{ tools: [{ description: "no name" }] }, /name must be a non-empty string/, { pointer: "/tools/0/name" }],
    [{ jsonrpc: "2.0", id: 1, result: { tools: [{ name: "t", inputSchema: { type: "string" } }] } }, /must describe an object/, { pointer: "/result/tools/0/inputSchema/type" }],
    [{ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } }, /is an error: Method not found/, { pointer: "/error" }],
    [{ prompts: [{ name: "p", arguments: [{ required: true }] }] }, /name must be a non-empty string/, { pointer: "/prompts/0/arguments/0/name" }],
    [{ tools: [], prompts: [] }, /no tools, prompts or resources/, { pointer: "/tools" }],
  ])("a list it cannot read is a GeneratorInputError with a pointer: %j", async (doc, message, location) => {
    const err = await mcpToMocks(doc).catch((e) => e);
    expect(err).toBeInstanceOf(GeneratorInputError);
    expect(err.message).toMatch(message);
    expect(err.location).toEqual(location);
  });

  it("argument placeholders: plain names bare, odd ones quoted, impossible ones none", () => {
    expect(argumentPlaceholder("city")).toBe("{{$.req.city}}");
    expect(argumentPlaceholder("a.b")).toBe("{{$.req['a.b']}}");
    expect(argumentPlaceholder("it's")).toBeUndefined();
  });
});
