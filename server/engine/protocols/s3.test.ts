import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "../engine";
import { memoryDeps } from "../testing";
import { looksLikeS3, mockedBuckets, placeS3, s3BucketRoute, s3Operation, splitS3Path } from "./s3";

const mock = (id: string, input: unknown): MockDefinition => ({ ...MockInput.parse(input), id, namespace: "ns" }) as MockDefinition;

describe("placeS3", () => {
  it("places a bucket mock at /<bucket>, any selector, conditions on the operation", () => {
    const conditions = [{ path: "$.operation", assertAction: "equals" as const, value: "GetObject" }];
    expect(placeS3(mock("a", { s3: { bucket: "files", conditions } }))).toEqual({ route: "/files", selector: null, conditions: { conditions } });
  });

  it("does not place bucket names that are not one literal path segment", () => {
    for (const bucket of ["a/b/c", ":any"]) expect(placeS3(mock("a", { s3: { bucket } }))).toBeNull();
  });
});

describe("S3 requests", () => {
  it("splits the stub path into a bucket and a decoded key (empty at bucket level)", () => {
    expect(splitS3Path("/files/a%20b/c.txt")).toEqual({ bucket: "files", key: "a b/c.txt" });
    expect(splitS3Path("/files/")).toEqual({ bucket: "files", key: "" });
    expect(splitS3Path("/files")).toEqual({ bucket: "files", key: "" });
    expect(splitS3Path("/files/a//b")).toEqual({ bucket: "files", key: "a//b" });
    expect(splitS3Path("/")).toBeNull();
    expect(splitS3Path("/files/%zz")).toBeNull();
  });

  it("names the operation from the method, the key and the sub-resources", () => {
    const op = (method: string, key: string, query: Record<string, string[]> = {}, headers: Record<string, string[]> = {}) => s3Operation(method, key, query, headers);
    expect(op("GET", "", { "list-type": ["2"] })).toBe("ListObjectsV2");
    expect(op("GET", "")).toBe("ListObjects");
    expect(op("GET", "", { location: [""] })).toBe("GetBucketLocation");
    expect(op("POST", "", { delete: [""] })).toBe("DeleteObjects");
    expect(op("GET", "k", { "x-id": ["GetObject"] })).toBe("GetObject");
    expect(op("PUT", "k", {}, { "x-amz-copy-source": ["b/k"] })).toBe("CopyObject");
    expect(op("PUT", "k", { uploadId: ["1"], partNumber: ["1"] })).toBe("NotImplemented");
    expect(op("GET", "", { acl: [""] })).toBe("NotImplemented");
    expect(op("PATCH", "k")).toBe("NotImplemented");
  });

  it("recognises S3 clients by their signature headers or presigned query", () => {
    expect(looksLikeS3({ "x-amz-content-sha256": ["UNSIGNED-PAYLOAD"] }, {})).toBe(true);
    expect(looksLikeS3({ authorization: ["AWS4-HMAC-SHA256 Credential=…"] }, {})).toBe(true);
    expect(looksLikeS3({}, { "X-Amz-Algorithm": ["AWS4-HMAC-SHA256"] })).toBe(true);
    expect(looksLikeS3({ authorization: ["Bearer x"] }, {})).toBe(false);
  });
});

describe("bucket mocks in the engine", () => {
  const ns = buildNamespace(
    "ns",
    [
      { mock: mock("any", { s3: { bucket: "files" }, response: { payload: { key: "$.req.key" } } }), sequence: 1, createdAt: 0 },
      { mock: mock("reads", { s3: { bucket: "files", conditions: [{ path: "$.operation", assertAction: "equals", value: "GetObject" }] } }), sequence: 2, createdAt: 0 },
      { mock: mock("http", { http: { route: "/files" } }), sequence: 3, createdAt: 0 },
    ],
  );

  it("lists the mocked buckets once per index", () => {
    expect([...mockedBuckets(ns.indexes.s3)]).toEqual(["files"]);
    expect(mockedBuckets(ns.indexes.s3)).toBe(mockedBuckets(ns.indexes.s3));
    expect(mockedBuckets(undefined).size).toBe(0);
  });

  it("selects by conditions on the operation and renders $.req from the request view", async () => {
    const run = (operation: string, key: string) => handle(ns, { namespace: "ns", method: operation, path: s3BucketRoute("files"), headers: {}, query: {}, body: { operation, bucket: "files", key } }, memoryDeps(), "s3");
    const get = await run("GetObject", "a.txt");
    const put = await run("PutObject", "b.txt");
    expect(get.matched && get.mock.id).toBe("reads");
    expect(put.matched && put.mock.id).toBe("any");
    expect(put.matched && put.response.body).toEqual({ key: "b.txt" });
  });
});
