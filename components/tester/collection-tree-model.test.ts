// The collection tree's data: order by sortIndex, search keeping ancestors,
// visible rows by open containers, and the order of a folder after a drop.
import { describe, expect, it } from "vitest";
import { buildTree, filterTree, reorderIds, requestIdsIn, type TreeCollection, visibleRows } from "./collection-tree-model";

const shop: TreeCollection = {
  id: "c1",
  name: "Shop",
  folders: [
    { id: "f2", parentId: null, name: "Orders", sortIndex: 1 },
    { id: "f1", parentId: null, name: "Auth", sortIndex: 0 },
    { id: "f3", parentId: "f2", name: "Refunds", sortIndex: 0 },
  ],
  requests: [
    { id: "r3", name: "Create order", method: "POST", url: "{{base}}/orders", kind: "http", folderId: "f2", sortIndex: 1 },
    { id: "r2", name: "List orders", method: "GET", url: "{{base}}/orders", kind: "http", folderId: "f2", sortIndex: 0 },
    { id: "r1", name: "Login", method: "POST", url: "{{base}}/login", kind: "http", folderId: "f1", sortIndex: 0 },
    { id: "r4", name: "Refund", method: "POST", url: "{{base}}/refunds", kind: "http", folderId: "f3", sortIndex: 0 },
    { id: "r5", name: "Health", method: "GET", url: "{{base}}/health", kind: "http", folderId: null, sortIndex: 0 },
  ],
};

const names = (rows: { node: { name: string; depth: number } }[]) => rows.map((r) => `${"  ".repeat(r.node.depth)}${r.node.name}`);

describe("collection tree model", () => {
  const tree = buildTree([shop]);

  it("orders folders before requests, each by sortIndex", () => {
    expect(names(visibleRows(tree, () => true))).toEqual(["Shop", "  Auth", "    Login", "  Orders", "    Refunds", "      Refund", "    List orders", "    Create order", "  Health"]);
  });

  it("shows only the children of open containers", () => {
    expect(names(visibleRows(tree, (k) => k === "c:c1"))).toEqual(["Shop", "  Auth", "  Orders", "  Health"]);
  });

  it.each([
    ["refund", ["Shop", "  Orders", "    Refunds", "      Refund"]],
    ["AUTH", ["Shop", "  Auth", "    Login"]],
    ["/health", ["Shop", "  Health"]],
    ["delete", []],
  ])("search %s keeps matches and their ancestors", (q, out) => {
    expect(names(visibleRows(filterTree(tree, q), () => true))).toEqual(out);
  });

  it("gives positions among siblings", () => {
    const rows = visibleRows(tree, (k) => k === "c:c1");
    expect(rows.map((r) => [r.position, r.siblings])).toEqual([[1, 1], [1, 3], [2, 3], [3, 3]]);
  });

  it("lists a folder's request ids in order", () => expect(requestIdsIn(shop, "f2")).toEqual(["r2", "r3"]));

  it.each([
    [["a", "b", "c"], ["c"], "a", "before", ["c", "a", "b"]],
    [["a", "b", "c"], ["a"], "c", "after", ["b", "c", "a"]],
    [["a", "b"], ["x"], "a", "after", ["a", "x", "b"]],
    [["a", "b"], ["x"], "missing", "before", ["a", "b", "x"]],
  ] as const)("reorderIds(%j, %j, %s, %s)", (siblings, moved, target, pos, out) => {
    expect(reorderIds(siblings, moved, target, pos)).toEqual(out);
  });

  it("survives a folder cycle", () => {
    const bad: TreeCollection = { id: "c", name: "C", folders: [{ id: "a", parentId: "b", name: "A", sortIndex: 0 }, { id: "b", parentId: "a", name: "B", sortIndex: 0 }], requests: [] };
    expect(visibleRows(buildTree([bad]), () => true)).toHaveLength(1);
  });
});
