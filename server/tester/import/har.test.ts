// HAR → collection on the task API recording (Chrome's export shape).
import { describe, expect, it } from "vitest";
import { harToCollection } from "./har";
import { generatorFixture, requestsOf } from "./test-helpers";

describe("harToCollection", () => {
  it("keeps every request in recorded order, with query params, headers and bodies", () => {
    const har = JSON.parse(generatorFixture("tasks-api.har"));
    const { document } = harToCollection(har);
    const requests = requestsOf(document.items);
    expect(requests).toHaveLength(har.log.entries.length);
    expect(requests.map((r) => r.request.method)).toEqual(har.log.entries.map((e: { request: { method: string } }) => e.request.method));
    const second = requests[1].request;
    expect(second.url).toBe("https://api.tasks.example/api/v1/tasks");
    expect(second.params).toEqual([expect.objectContaining({ key: "project", value: "1" })]);
    const post = requests.find((r) => r.request.method === "POST")!.request;
    expect(post.body).toMatchObject({ mode: "raw", language: "json" });
    expect(post.headers.some((h) => h.key.toLowerCase() === "content-length" || h.key.startsWith(":"))).toBe(false);
  });

  it("makes a folder per host when the recording spans several", () => {
    const entry = (url: string) => ({ request: { method: "GET", url, headers: [] }, response: { status: 200, headers: [], content: {} } });
    const { document } = harToCollection({ log: { entries: [entry("https://a.example/x"), entry("https://b.example/y"), entry("wss://a.example/s")] } });
    expect(document.items.map((i) => i.name)).toEqual(["a.example", "b.example"]);
  });

  it("refuses what is not a HAR, with the JSON pointer", () => {
    expect(() => harToCollection({ log: { entries: [{ request: { method: "GET" } }] } })).toThrow(expect.objectContaining({ location: expect.objectContaining({ pointer: expect.stringContaining("/log/entries/0") }) }));
  });
});
