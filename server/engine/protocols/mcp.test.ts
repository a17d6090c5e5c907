import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "../engine";
import { memoryDeps } from "../testing";
import { listPrompts, listTools, mcpServerAt, placeMcp, promptArguments, promptResult, resourceResult, toolInputSchema, toolResult } from "./mcp";

let seq = 0;
const mock = (input: unknown): MockDefinition => ({ ...MockInput.parse(input), id: `m${++seq}`, namespace: "ns" }) as MockDefinition;
const build = (...defs: MockDefinition[]) => buildNamespace("ns", defs.map((d, i) => ({ mock: d, sequence: i, createdAt: 0 })));

describe("placeMcp", () => {
  it("places a mock at its server path with '<method> <name>' as selector and conditions on the arguments", () => {
    const conditions = [{ path: "$.city", assertAction: "equals" as const, value: "Oslo" }];
    expect(placeMcp(mock({ mcp: { method: "tools/call", tool: "weather", conditions } }))).toEqual({ route: "/", selector: "tools/call weather", conditions: { conditions, sortArray: undefined } });
    expect(placeMcp(mock({ pathPrefix: "agents/v1/", mcp: { method: "prompts/get", prompt: "greet" } }))).toMatchObject({ route: "/agents/v1", selector: "prompts/get greet" });
    expect(placeMcp(mock({ mcp: { method: "resources/read", resource: "file:///a" } }))?.selector).toBe("resources/read file:///a");
  });

  it("does not serve a mock whose block lacks the name its method needs", () => {
    expect(placeMcp(mock({ mcp: { method: "tools/call", prompt: "x" } }))).toBeNull();
  });
});

describe("the MCP catalog of a server path", () => {
  const ns = build(
    mock({ mcp: { method: "tools/call", tool: "weather", description: "Weather" } }),
    mock({ mcp: { method: "tools/call", tool: "weather", conditions: [{ path: "$.city", assertAction: "equals", value: "Oslo" }] } }),
    mock({ pathPrefix: "/b", mcp: { method: "tools/call", tool: "invoice" } }),
    mock({ mcp: { method: "prompts/get", prompt: "greet", description: "Hi" }, response: { payload: { arguments: [{ name: "who", required: true }], messages: [] } } }),
  );
  const index = ns.indexes.mcp!;

  it("lists the tools and prompts of the path only", () => {
    expect(listTools(mcpServerAt(index, "/"))).toEqual([{ name: "weather", description: "Weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } }]);
    expect(listTools(mcpServerAt(index, "/b/"))).toEqual([{ name: "invoice", inputSchema: { type: "object" } }]);
    expect(listPrompts(mcpServerAt(index, "/"))).toEqual([{ name: "greet", description: "Hi", arguments: [{ name: "who", required: true }] }]);
    expect(mcpServerAt(index, "/elsewhere")).toBeUndefined();
  });

  it("selects among the mocks of one tool with the engine, conditions on the arguments", async () => {
    const deps = memoryDeps();
    const call = (args: unknown) => handle(ns, { namespace: "ns", method: "tools/call weather", path: "/", headers: {}, query: {}, body: args }, deps, "mcp");
    const oslo = await call({ city: "Oslo" });
    const lima = await call({ city: "Lima" });
    expect(oslo.matched && oslo.mock.mcp?.conditions).toHaveLength(1);
    expect(lima.matched && lima.mock.mcp?.description).toBe("Weather");
  });
});

describe("declared tool schemas", () => {
  const inputSchema = { type: "object", properties: { city: { type: "string", description: "City name" } }, required: ["city"] };
  const outputSchema = { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] };
  const index = build(
    mock({ mcp: { method: "tools/call", tool: "weather", conditions: [{ path: "$.days", assertAction: "gt", value: 1 }] } }),
    mock({ mcp: { method: "tools/call", tool: "weather", inputSchema, outputSchema } }),
  ).indexes.mcp!;

  it("tools/list shows the input and output schemas a mock of the tool declares, instead of guessing from conditions", () => {
    expect(listTools(mcpServerAt(index, "/"))).toEqual([{ name: "weather", inputSchema, outputSchema }]);
  });

  it("a tool with an output schema answers an object payload as structuredContent too; errors and non-objects do not", () => {
    expect(toolResult({ temp: 3 }, false, true)).toEqual({ content: [{ type: "text", text: '{"temp":3}' }], isError: false, structuredContent: { temp: 3 } });
    expect(toolResult({ temp: 3 }, true, true)).not.toHaveProperty("structuredContent");
    expect(toolResult([1], false, true)).not.toHaveProperty("structuredContent");
  });

  it("the contract takes only object schemas", () => {
    expect(MockInput.safeParse({ mcp: { method: "tools/call", tool: "t", inputSchema: { type: "string" } } }).success).toBe(false);
  });
});

describe("toolInputSchema", () => {
  it("types the top-level arguments the conditions look at; disagreeing or untyped conditions leave the type open", () => {
    const schema = toolInputSchema([
      { def: mock({ mcp: { method: "tools/call", tool: "t", conditions: [{ path: "$.n", assertAction: "gt", value: 3 }, { path: "q", assertAction: "matches", value: "^a" }] } }) },
      { def: mock({ mcp: { method: "tools/call", tool: "t", conditions: [{ path: "$.n", assertAction: "equals", value: "x" }, { path: "$.filter.kind", assertAction: "equals", value: "a" }, { path: "$.tags[0]", assertAction: "equals", value: "b" }] } }) },
      { def: mock({ mcp: { method: "tools/call", tool: "t", conditions: [{ path: "$.ok", assertAction: "equals", value: true }] } }) },
    ]);
    expect(schema).toEqual({ type: "object", properties: { n: {}, q: {}, filter: { type: "object" }, tags: { type: "array" }, ok: { type: "boolean" } } });
  });
});

describe("promptArguments", () => {
  it("merges the payload arguments of every response by name and drops malformed entries", () => {
    const args = promptArguments(
      [
        mock({ mcp: { method: "prompts/get", prompt: "p" }, oneOf: { responses: [{ payload: { arguments: [{ name: "a", description: "A" }, { nope: 1 }, "x"] } }, { payload: { arguments: [{ name: "b", required: "yes" }] } }] } }),
        mock({ mcp: { method: "prompts/get", prompt: "p" }, response: { payload: { arguments: [{ name: "a", description: "other" }] } } }),
        mock({ mcp: { method: "prompts/get", prompt: "p" }, response: { payload: "plain" } }),
      ].map((def) => ({ def })),
    );
    expect(args).toEqual([{ name: "a", description: "A" }, { name: "b" }]);
  });
});

describe("results", () => {
  it("tools/call: one text item with the payload's JSON (strings too), null when there is none", () => {
    expect(toolResult({ a: 1 }, false)).toEqual({ content: [{ type: "text", text: '{"a":1}' }], isError: false });
    expect(toolResult("hi", true)).toEqual({ content: [{ type: "text", text: '"hi"' }], isError: true });
    expect(toolResult(undefined, false).content[0].text).toBe("null");
  });

  it("prompts/get: messages with role and text content; a string is one user message; arguments are not returned", () => {
    expect(promptResult("Hello", undefined)).toEqual({ messages: [{ role: "user", content: { type: "text", text: "Hello" } }] });
    expect(
      promptResult({ arguments: [{ name: "x" }], description: "D", messages: [{ role: "assistant", text: "A" }, { role: "system", text: { n: 1 } }, "plain", { role: "user", content: { type: "text", text: "C" } }] }, "mock"),
    ).toEqual({
      description: "D",
      messages: [
        { role: "assistant", content: { type: "text", text: "A" } },
        { role: "user", content: { type: "text", text: '{"n":1}' } },
        { role: "user", content: { type: "text", text: "plain" } },
        { role: "user", content: { type: "text", text: "C" } },
      ],
    });
    expect(promptResult({ arguments: [], hint: 1 }, "mock")).toEqual({ description: "mock", messages: [{ role: "user", content: { type: "text", text: '{"hint":1}' } }] });
    expect(promptResult(undefined, undefined)).toEqual({ messages: [] });
  });

  it("resources/read: text as is, other payloads as JSON", () => {
    expect(resourceResult("u", "txt", undefined)).toEqual({ contents: [{ uri: "u", mimeType: "text/plain", text: "txt" }] });
    expect(resourceResult("u", { a: 1 }, "application/vnd.x+json")).toEqual({ contents: [{ uri: "u", mimeType: "application/vnd.x+json", text: '{"a":1}' }] });
  });
});
