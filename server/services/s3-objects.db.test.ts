import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { makeNamespace } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { deleteS3Objects, etagOf, getS3Object, headS3Object, iterateS3Keys, putS3Object, S3LimitError } from "./s3-objects";

useTestDatabase();

let ns = "";
beforeAll(async () => {
  ns = (await makeNamespace("objects")).id;
});
afterEach(() => {
  for (const name of ["S3_MAX_BUCKET_BYTES", "S3_MAX_BUCKET_OBJECTS", "S3_MAX_NAMESPACE_BYTES", "S3_MAX_OBJECT_BYTES"]) delete process.env[name];
});

const put = (bucket: string, key: string, bytes: Buffer, contentType = "application/octet-stream") => putS3Object(ns, bucket, key, { bytes, contentType, metadata: {} });

async function keys(bucket: string, prefix = "", after?: string) {
  const out: string[] = [];
  for await (const row of iterateS3Keys(ns, bucket, prefix, after)) out.push(row.key);
  return out;
}

describe("S3 object storage", () => {
  it("stores, replaces, reads and deletes an object with its ETag, size and metadata", async () => {
    const first = await putS3Object(ns, "b1", "k", { bytes: Buffer.from("one"), contentType: "text/plain", metadata: { a: "1" } });
    expect(first).toMatchObject({ etag: etagOf(Buffer.from("one")), size: 3, contentType: "text/plain", metadata: { a: "1" } });
    const bytes = randomBytes(5000);
    await put("b1", "k", bytes);
    const got = await getS3Object(ns, "b1", "k");
    expect(got?.bytes.equals(bytes)).toBe(true);
    expect(got).toMatchObject({ size: 5000, etag: etagOf(bytes), metadata: {} });
    expect(await headS3Object(ns, "b1", "k")).not.toHaveProperty("bytes");
    await deleteS3Objects(ns, "b1", ["k", "never"]);
    expect(await getS3Object(ns, "b1", "k")).toBeNull();
  });

  it("iterates keys in UTF-8 byte order, by prefix, after a key, across pages of a thousand", async () => {
    for (const k of ["b", "a", "\ufffd", "😀", "a/2", "a/1", "B"]) await put("order", k, Buffer.from(k));
    // Byte order: "B" < "a" < "a/1" < "a/2" < "b" < U+FFFD (EF BF BD) < 😀 (F0 9F 98 80), unlike UTF-16 order.
    expect(await keys("order")).toEqual(["B", "a", "a/1", "a/2", "b", "\ufffd", "😀"]);
    expect(await keys("order", "a/")).toEqual(["a/1", "a/2"]);
    expect(await keys("order", "", "a/1")).toEqual(["a/2", "b", "\ufffd", "😀"]);

    await db().s3Object.createMany({
      data: Array.from({ length: 1005 }, (_, i) => ({ namespaceId: ns, bucket: "many", key: `k${String(i).padStart(4, "0")}`, content: new Uint8Array(0), contentType: "x", etag: '""', size: 0 })),
    });
    const all = await keys("many");
    expect(all).toHaveLength(1005);
    expect(all[1004]).toBe("k1004");
  });

  it("limits: the object size, and the bucket's bytes exactly under concurrent uploads", async () => {
    process.env.S3_MAX_OBJECT_BYTES = "10";
    await expect(put("lim", "big", Buffer.alloc(11))).rejects.toMatchObject({ kind: "object" });
    delete process.env.S3_MAX_OBJECT_BYTES;

    process.env.S3_MAX_BUCKET_BYTES = "500";
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => put("lim", `k${i}`, Buffer.alloc(100))));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.every((r) => r.reason instanceof S3LimitError && r.reason.kind === "bucket")).toBe(true);
    // Replacing an object frees its old size.
    await put("lim", "k0", Buffer.alloc(100));
    process.env.S3_MAX_BUCKET_OBJECTS = "1";
    await expect(put("lim2", "a", Buffer.alloc(1)).then(() => put("lim2", "b", Buffer.alloc(1)))).rejects.toMatchObject({ kind: "bucket" });
    process.env.S3_MAX_NAMESPACE_BYTES = "1";
    await expect(put("lim3", "a", Buffer.alloc(2))).rejects.toMatchObject({ kind: "namespace" });
  });

  it("objects go with their namespace", async () => {
    const other = await makeNamespace("objects-gone");
    await putS3Object(other.id, "b", "k", { bytes: Buffer.from("x"), contentType: "x", metadata: {} });
    await db().namespace.delete({ where: { id: other.id } });
    expect(await db().s3Object.count({ where: { namespaceId: other.id } })).toBe(0);
  });
});
