import { describe, expect, it } from "vitest";
import { compileRoute } from "./route";
import { equalityKey, type IndexedMock, RouteIndex } from "./route-index";

let seq = 0;
function mock(id: string, route: string, opts: Partial<IndexedMock> = {}): IndexedMock {
  return { id, route: compileRoute(route), method: "GET", priority: 0, conditionCount: 0, sequence: seq++, equalityKeys: [], ...opts };
}
const ids = (index: RouteIndex<IndexedMock>, method: string, path: string, body?: unknown) => index.match(method, path, body).map((c) => c.mock.id);

describe("route matching", () => {
  const index = new RouteIndex([
    mock("users", "/api/users"),
    mock("user", "/api/users/:id"),
    mock("me", "/api/users/me"),
    mock("posts", "/api/users/:id/posts/:postId"),
    mock("any-method", "/api/anything", { method: null }),
    mock("post-users", "/api/users", { method: "POST" }),
    mock("files", "/files/*"),
    mock("root", "/"),
    mock("encoded", "/a b/c"),
  ]);

  it.each([
    ["GET", "/api/users", ["users"]],
    ["GET", "/api/users/", ["users"]],
    ["GET", "api//users", ["users"]],
    ["POST", "/api/users", ["post-users"]],
    ["DELETE", "/api/users", []],
    ["GET", "/api/users/42", ["user"]],
    ["GET", "/api/users/me", ["me", "user"]],
    ["GET", "/api/users/7/posts/9", ["posts"]],
    ["PATCH", "/api/anything", ["any-method"]],
    ["GET", "/files/a/b/c.txt", ["files"]],
    ["GET", "/files", []],
    ["GET", "/", ["root"]],
    ["GET", "/a%20b/c", ["encoded"]],
    ["GET", "/nothing", []],
  ])("%s %s → %j", (method, path, expected) => {
    expect(ids(index, method, path)).toEqual(expected);
  });

  it("extracts path parameters, decoded", () => {
    const [c] = index.match("GET", "/api/users/j%C3%BCrgen/posts/3", undefined);
    expect(c.pathParams).toEqual({ id: "jürgen", postId: "3" });
    expect(index.match("GET", "/files/x/y", undefined)[0].pathParams).toEqual({ "*": "x/y" });
  });
});

describe("selection order", () => {
  it("priority first, then the more specific route, then more conditions, then newer", () => {
    const index = new RouteIndex([
      mock("old-plain", "/o/:id"),
      mock("specific", "/o/1"),
      mock("conditioned", "/o/:id", { conditionCount: 2 }),
      mock("new-plain", "/o/:id"),
      mock("urgent", "/o/:id", { priority: 5 }),
    ]);
    expect(ids(index, "GET", "/o/1")).toEqual(["urgent", "specific", "conditioned", "new-plain", "old-plain"]);
  });
});

describe("equality hashing among many mocks of one route", () => {
  const many = Array.from({ length: 100 }, (_, i) =>
    mock(`t${i}`, "/api/orders", { method: "POST", conditionCount: 1, equalityKeys: [{ path: "$.type", key: equalityKey(`t${i}`)! }] }),
  );
  const fallback = mock("fallback", "/api/orders", { method: "POST" });
  const index = new RouteIndex([...many, fallback]);

  it("returns the hashed mock and the mocks without that condition, in selection order", () => {
    expect(ids(index, "POST", "/api/orders", { type: "t77" })).toEqual(["t77", "fallback"]);
  });
  it("returns only the others when no key matches or the field is absent", () => {
    expect(ids(index, "POST", "/api/orders", { type: "zzz" })).toEqual(["fallback"]);
    expect(ids(index, "POST", "/api/orders", {})).toEqual(["fallback"]);
    expect(ids(index, "POST", "/api/orders", "not json")).toEqual(["fallback"]);
  });
  it("treats numbers and numeric strings as one key", () => {
    const idx = new RouteIndex(Array.from({ length: 5 }, (_, i) => mock(`n${i}`, "/n", { equalityKeys: [{ path: "id", key: equalityKey(i)! }] })));
    expect(ids(idx, "GET", "/n", { id: 3 })).toEqual(["n3"]);
    expect(ids(idx, "GET", "/n", { id: "3" })).toEqual(["n3"]);
    expect(ids(idx, "GET", "/n", { id: "3.0" })).toEqual(["n3"]);
  });
});
