// S3 mocks served to @aws-sdk/client-s3 (path style, signed with dummy
// credentials, default checksums) over a real socket: an in-process
// node:http server running the stub fast path, objects in the test database.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { saveMock } from "@/server/services/mocks";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { resolveNamespace } from "@/server/services/namespace-access";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { handleStubRequest } from "./http-stub";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

const seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[] = [];
const server = http.createServer((req, res) => {
  seen.push({ method: req.method!, url: req.url!, headers: req.headers });
  void handleStubRequest(req, res, randomUUID());
});
let port = 0;
let s3: S3Client;
let actor: ReturnType<typeof actorFor>;
let scope: Awaited<ReturnType<typeof resolveNamespace>>;

const client = (extra: Partial<ConstructorParameters<typeof S3Client>[0]> = {}) =>
  new S3Client({
    region: "us-east-1",
    endpoint: `http://127.0.0.1:${port}/stubs/s3ns`,
    forcePathStyle: true,
    credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "not-a-secret" },
    maxAttempts: 1,
    ...extra,
  });

beforeAll(async () => {
  const { user } = await makeUser();
  actor = actorFor(user);
  await makeNamespace("s3ns", { [user.id]: "owner" });
  scope = await resolveNamespace(actor, "s3ns");
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  s3 = client();

  await save({ id: "files-bucket", s3: { bucket: "files" } });
  await save({ id: "other-bucket", s3: { bucket: "other-files" } });
  // Fallback answers for keys never stored: a templated default, and a special key chosen by a condition.
  await save({ id: "assets-default", s3: { bucket: "assets" }, response: { payload: { missing: "$.req.key", op: "$.req.operation" }, headers: { "Access-Control-Allow-Origin": "*" } } });
  await save({
    id: "assets-logo",
    s3: { bucket: "assets", conditions: [{ path: "$.key", assertAction: "equals", value: "logo.svg" }] },
    response: { payload: "<svg/>", headers: { "Content-Type": "image/svg+xml" } },
  });
  // A bucket whose mock makes every operation fail, as an outage would.
  await save({ id: "down-bucket", s3: { bucket: "down" }, response: { statusCode: 503, payload: { code: "SlowDown", message: "Please reduce your request rate." } } });
});

afterEach(() => {
  for (const name of ["S3_MAX_OBJECT_BYTES", "S3_MAX_BUCKET_BYTES"]) delete process.env[name];
});

afterAll(async () => {
  s3.destroy();
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function save(input: unknown) {
  const result = await saveMock(actor, scope, MockInput.parse(input));
  invalidateAll();
  return result;
}

const md5 = (b: Buffer) => `"${createHash("md5").update(b).digest("hex")}"`;

async function bytesOf(body: unknown): Promise<Buffer> {
  return Buffer.from(await (body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray());
}

async function s3Failure(p: Promise<unknown>): Promise<S3ServiceException> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(S3ServiceException);
    return err as S3ServiceException;
  }
  throw new Error("expected the S3 call to fail");
}

function raw(method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("S3 objects with @aws-sdk/client-s3", () => {
  it("PUT stores random bytes; GET returns them with content type, ETag, Last-Modified and length", async () => {
    const bytes = randomBytes(256 * 1024 + 17);
    const put = await s3.send(new PutObjectCommand({ Bucket: "files", Key: "blobs/random.bin", Body: bytes, ContentType: "application/x-test", Metadata: { owner: "ada" } }));
    expect(put.ETag).toBe(md5(bytes));
    const got = await s3.send(new GetObjectCommand({ Bucket: "files", Key: "blobs/random.bin" }));
    expect((await bytesOf(got.Body)).equals(bytes)).toBe(true);
    expect(got.ContentType).toBe("application/x-test");
    expect(got.ETag).toBe(md5(bytes));
    expect(got.ContentLength).toBe(bytes.length);
    expect(got.LastModified).toBeInstanceOf(Date);
    expect(Math.abs(got.LastModified!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(got.Metadata).toEqual({ owner: "ada" });

    const head = await s3.send(new HeadObjectCommand({ Bucket: "files", Key: "blobs/random.bin" }));
    expect(head).toMatchObject({ ContentLength: bytes.length, ETag: md5(bytes), ContentType: "application/x-test", Metadata: { owner: "ada" } });
  });

  it("a streamed upload (aws-chunked with a trailing checksum) is decoded before it is stored", async () => {
    const parts = [randomBytes(70_000), randomBytes(70_000), Buffer.from("tail")];
    const whole = Buffer.concat(parts);
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "streamed.bin", Body: Readable.from(parts), ContentLength: whole.length }));
    const got = await s3.send(new GetObjectCommand({ Bucket: "files", Key: "streamed.bin" }));
    expect((await bytesOf(got.Body)).equals(whole)).toBe(true);
    const put = seen.find((r) => r.method === "PUT" && r.url.includes("/files/streamed.bin"))!;
    expect(put.headers["content-encoding"]).toContain("aws-chunked");
    expect(put.headers["x-amz-decoded-content-length"]).toBe(String(whole.length));
    // Without a content type (the SDK always sends one), an object is binary/octet-stream, as on S3.
    expect((await raw("PUT", "/stubs/s3ns/files/untyped", {}, "x")).status).toBe(200);
    expect((await raw("GET", "/stubs/s3ns/files/untyped")).headers["content-type"]).toBe("binary/octet-stream");
  });

  it("objects are rows in the database: a fresh index (as after a restart) serves them", async () => {
    const body = Buffer.from("kept across restarts");
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "durable.txt", Body: body, ContentType: "text/plain" }));
    const row = await db().s3Object.findFirstOrThrow({ where: { namespaceId: scope.id, bucket: "files", key: "durable.txt" } });
    expect(Buffer.from(row.content).equals(body)).toBe(true);
    expect(row).toMatchObject({ size: body.length, etag: md5(body), contentType: "text/plain" });
    invalidateAll();
    const fresh = client();
    const got = await fresh.send(new GetObjectCommand({ Bucket: "files", Key: "durable.txt" }));
    expect(await got.Body!.transformToString()).toBe("kept across restarts");
    fresh.destroy();
  });

  it("GET with Range answers 206 with the slice", async () => {
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "range.txt", Body: "0123456789" }));
    const got = await s3.send(new GetObjectCommand({ Bucket: "files", Key: "range.txt", Range: "bytes=2-5" }));
    expect(await got.Body!.transformToString()).toBe("2345");
    expect(got.ContentRange).toBe("bytes 2-5/10");
    const bad = await s3Failure(s3.send(new GetObjectCommand({ Bucket: "files", Key: "range.txt", Range: "bytes=50-" })));
    expect(bad.name).toBe("InvalidRange");
    expect(bad.$metadata.httpStatusCode).toBe(416);
  });

  it("DELETE is 204 and idempotent; a missing key is NoSuchKey", async () => {
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "gone.txt", Body: "x" }));
    const del = await s3.send(new DeleteObjectCommand({ Bucket: "files", Key: "gone.txt" }));
    expect(del.$metadata.httpStatusCode).toBe(204);
    expect((await s3.send(new DeleteObjectCommand({ Bucket: "files", Key: "gone.txt" }))).$metadata.httpStatusCode).toBe(204);
    const missing = await s3Failure(s3.send(new GetObjectCommand({ Bucket: "files", Key: "gone.txt" })));
    expect(missing.name).toBe("NoSuchKey");
    expect(missing.$metadata.httpStatusCode).toBe(404);
    const head = await s3Failure(s3.send(new HeadObjectCommand({ Bucket: "files", Key: "gone.txt" })));
    expect(head.$metadata.httpStatusCode).toBe(404);
  });

  it("ListObjectsV2 with prefix, delimiter (common prefixes) and continuation tokens", async () => {
    const keys = ["list/a.txt", "list/b.txt", "list/docs/1.md", "list/docs/2.md", "list/img/x.png", "list/z.txt", "list/é.txt"];
    for (const Key of keys) await s3.send(new PutObjectCommand({ Bucket: "other-files", Key, Body: Key }));
    await s3.send(new PutObjectCommand({ Bucket: "other-files", Key: "elsewhere.txt", Body: "no" }));

    const all = await s3.send(new ListObjectsV2Command({ Bucket: "other-files", Prefix: "list/" }));
    expect(all.Contents?.map((c) => c.Key)).toEqual(keys);
    expect(all.KeyCount).toBe(keys.length);
    expect(all.IsTruncated).toBe(false);
    expect(all.Contents?.[0]).toMatchObject({ Size: "list/a.txt".length, ETag: md5(Buffer.from("list/a.txt")), StorageClass: "STANDARD" });

    const folders = await s3.send(new ListObjectsV2Command({ Bucket: "other-files", Prefix: "list/", Delimiter: "/" }));
    expect(folders.Contents?.map((c) => c.Key)).toEqual(["list/a.txt", "list/b.txt", "list/z.txt", "list/é.txt"]);
    expect(folders.CommonPrefixes?.map((p) => p.Prefix)).toEqual(["list/docs/", "list/img/"]);

    // Pages of two items: keys and common prefixes count alike, and a page ending on a prefix resumes past it.
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: "other-files", Prefix: "list/", Delimiter: "/", MaxKeys: 2, ContinuationToken: token }));
      seen.push(...(page.Contents ?? []).map((c) => c.Key!), ...(page.CommonPrefixes ?? []).map((p) => p.Prefix!));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(["list/a.txt", "list/b.txt", "list/docs/", "list/img/", "list/z.txt", "list/é.txt"].sort());

    const bad = await s3Failure(s3.send(new ListObjectsV2Command({ Bucket: "other-files", ContinuationToken: "not a token!" })));
    expect(bad.name).toBe("InvalidArgument");
  });

  it("CopyObject and DeleteObjects", async () => {
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "copy/src.txt", Body: "copied", ContentType: "text/plain" }));
    const copy = await s3.send(new CopyObjectCommand({ Bucket: "other-files", Key: "copy/dst.txt", CopySource: "files/copy/src.txt" }));
    expect(copy.CopyObjectResult?.ETag).toBe(md5(Buffer.from("copied")));
    const got = await s3.send(new GetObjectCommand({ Bucket: "other-files", Key: "copy/dst.txt" }));
    expect(await got.Body!.transformToString()).toBe("copied");
    expect(got.ContentType).toBe("text/plain");

    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "copy/second.txt", Body: "2" }));
    const del = await s3.send(new DeleteObjectsCommand({ Bucket: "files", Delete: { Objects: [{ Key: "copy/src.txt" }, { Key: "copy/second.txt" }, { Key: "copy/never.txt" }] } }));
    expect(del.Deleted?.map((d) => d.Key)).toEqual(["copy/src.txt", "copy/second.txt", "copy/never.txt"]);
    const left = await s3.send(new ListObjectsV2Command({ Bucket: "files", Prefix: "copy/" }));
    expect(left.Contents).toBeUndefined();
  });

  it("HeadBucket of a mocked bucket is 200; an unmocked bucket is NoSuchBucket and an undefined request (protocol s3)", async () => {
    expect((await s3.send(new HeadBucketCommand({ Bucket: "files" }))).$metadata.httpStatusCode).toBe(200);
    const err = await s3Failure(s3.send(new GetObjectCommand({ Bucket: "nobody-mocked-this", Key: "a/b.txt" })));
    expect(err.name).toBe("NoSuchBucket");
    expect(err.$metadata.httpStatusCode).toBe(404);
    await stubRecorder().drain();
    const rows = await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, path: "/nobody-mocked-this/a/b.txt" } });
    expect(rows).toEqual([expect.objectContaining({ protocol: "s3", method: "GET" })]);
    expect(rows[0].body).toMatchObject({ operation: "GetObject", bucket: "nobody-mocked-this", key: "a/b.txt" });
  });

  it("an undefined S3 request becomes a bucket mock, after which the bucket stores objects", async () => {
    const err = await s3Failure(s3.send(new PutObjectCommand({ Bucket: "late-bucket", Key: "a.txt", Body: "x" })));
    expect(err.name).toBe("NoSuchBucket");
    await stubRecorder().drain();
    const row = await db().undefinedRequest.findFirstOrThrow({ where: { namespaceId: scope.id, protocol: "s3", path: "/late-bucket/a.txt" } });
    await createMockFromUndefinedRequest(actor, scope, row.id, { id: "late-bucket" });
    invalidateAll();
    expect(await db().mock.findFirstOrThrow({ where: { id: "late-bucket" } })).toMatchObject({ protocol: "s3", route: "late-bucket" });
    await s3.send(new PutObjectCommand({ Bucket: "late-bucket", Key: "a.txt", Body: "x" }));
    expect(await (await s3.send(new GetObjectCommand({ Bucket: "late-bucket", Key: "a.txt" }))).Body!.transformToString()).toBe("x");
    // Without a payload the mock has no fallback: a missing key is NoSuchKey.
    expect((await s3Failure(s3.send(new GetObjectCommand({ Bucket: "late-bucket", Key: "b.txt" })))).name).toBe("NoSuchKey");
  });

  it("duplicate detection: a second mock of a bucket with the same conditions is a duplicate, with other conditions it is not", async () => {
    await expect(save({ s3: { bucket: "files" }, response: { payload: "x" } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await save({ s3: { bucket: "files", conditions: [{ path: "$.operation", assertAction: "equals", value: "HeadBucket" }] } });
  });

  it("the mock's payload answers keys never stored: chosen by conditions on the key, templated with $.req", async () => {
    const logo = await s3.send(new GetObjectCommand({ Bucket: "assets", Key: "logo.svg" }));
    expect(await logo.Body!.transformToString()).toBe("<svg/>");
    expect(logo.ContentType).toBe("image/svg+xml");
    const other = await s3.send(new GetObjectCommand({ Bucket: "assets", Key: "img/cat.png" }));
    expect(JSON.parse(await other.Body!.transformToString())).toEqual({ missing: "img/cat.png", op: "GetObject" });
    // A stored object wins over the fallback, and the mock's headers (CORS) come with it.
    await s3.send(new PutObjectCommand({ Bucket: "assets", Key: "img/cat.png", Body: "meow" }));
    const stored = await raw("GET", "/stubs/s3ns/assets/img/cat.png");
    expect(stored.body.toString()).toBe("meow");
    expect(stored.headers["access-control-allow-origin"]).toBe("*");

    await stubRecorder().drain();
    const hits = await db().requestLog.findMany({ where: { mockId: "assets-default" }, orderBy: { id: "asc" } });
    expect(hits.map((h) => (h.body as { operation: string }).operation)).toEqual(["GetObject", "PutObject", "GetObject"]);
    expect(await db().requestLog.count({ where: { mockId: "assets-logo" } })).toBe(1);
  });

  it("a mock with an error status fails every operation on its bucket with an S3 error", async () => {
    const err = await s3Failure(s3.send(new PutObjectCommand({ Bucket: "down", Key: "x", Body: "y" })));
    expect(err.$metadata.httpStatusCode).toBe(503);
    expect(err.name).toBe("SlowDown");
    expect(err.message).toBe("Please reduce your request rate.");
    expect(await db().s3Object.count({ where: { bucket: "down" } })).toBe(0);
  });

  it("size limits: an object over the limit is EntityTooLarge, a full bucket is QuotaExceeded", async () => {
    process.env.S3_MAX_OBJECT_BYTES = "1000";
    const big = await s3Failure(s3.send(new PutObjectCommand({ Bucket: "files", Key: "big.bin", Body: randomBytes(1001) })));
    expect(big.name).toBe("EntityTooLarge");
    expect(big.$metadata.httpStatusCode).toBe(400);
    delete process.env.S3_MAX_OBJECT_BYTES;
    const used = (await db().s3Object.aggregate({ where: { namespaceId: scope.id, bucket: "files" }, _sum: { size: true } }))._sum.size ?? 0;
    process.env.S3_MAX_BUCKET_BYTES = String(used + 100);
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "fits.bin", Body: randomBytes(100) }));
    // Replacing an object counts its new size only.
    await s3.send(new PutObjectCommand({ Bucket: "files", Key: "fits.bin", Body: randomBytes(100) }));
    const full = await s3Failure(s3.send(new PutObjectCommand({ Bucket: "files", Key: "overflow.bin", Body: randomBytes(1) })));
    expect(full.name).toBe("QuotaExceeded");
    expect(full.$metadata.httpStatusCode).toBe(403);
  });
});

describe("S3 bad input (raw HTTP)", () => {
  it("a broken aws-chunked body is 400 IncompleteBody; malformed DeleteObjects XML is 400 MalformedXML; never a 500", async () => {
    const chunked = await raw("PUT", "/stubs/s3ns/files/broken.bin", { "content-encoding": "aws-chunked", "x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER" }, "zz\r\nhello\r\n0\r\n\r\n");
    expect(chunked.status).toBe(400);
    expect(chunked.body.toString()).toContain("<Code>IncompleteBody</Code>");
    const xml = await raw("POST", "/stubs/s3ns/files?delete", { "content-type": "application/xml" }, "<Delete><Object>");
    expect(xml.status).toBe(400);
    expect(xml.body.toString()).toContain("<Code>MalformedXML</Code>");
    const unserved = await raw("GET", "/stubs/s3ns/files?acl");
    expect(unserved.status).toBe(501);
    expect(unserved.body.toString()).toContain("<Code>NotImplemented</Code>");
  });

  it("a signed-chunk upload without trailer is decoded too; a Content-MD5 mismatch is BadDigest", async () => {
    const body = "5;chunk-signature=" + "a".repeat(64) + "\r\nhello\r\n6;chunk-signature=" + "b".repeat(64) + "\r\n world\r\n0;chunk-signature=" + "c".repeat(64) + "\r\n\r\n";
    const put = await raw("PUT", "/stubs/s3ns/files/signed.txt", { "x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", "x-amz-decoded-content-length": "11", "content-type": "text/plain" }, body);
    expect(put.status).toBe(200);
    expect((await raw("GET", "/stubs/s3ns/files/signed.txt")).body.toString()).toBe("hello world");
    const bad = await raw("PUT", "/stubs/s3ns/files/md5.txt", { "content-md5": "AAAAAAAAAAAAAAAAAAAAAA==" }, "data");
    expect(bad.status).toBe(400);
    expect(bad.body.toString()).toContain("<Code>BadDigest</Code>");
  });

  it("plain curl-style calls (the README example): PUT, GET, list", async () => {
    const put = await raw("PUT", "/stubs/s3ns/files/greetings/hello.txt", { "content-type": "text/plain" }, "hello");
    expect(put.status).toBe(200);
    expect(put.headers.etag).toBe(md5(Buffer.from("hello")));
    const got = await raw("GET", "/stubs/s3ns/files/greetings/hello.txt");
    expect(got.body.toString()).toBe("hello");
    expect(got.headers["content-type"]).toBe("text/plain");
    const list = await raw("GET", "/stubs/s3ns/files?list-type=2&prefix=greetings/");
    expect(list.headers["content-type"]).toBe("application/xml");
    expect(list.body.toString()).toMatch(/<ListBucketResult xmlns="http:\/\/s3.amazonaws.com\/doc\/2006-03-01\/"><Name>files<\/Name><Prefix>greetings\/<\/Prefix><KeyCount>1<\/KeyCount>.*<Key>greetings\/hello.txt<\/Key>/);
  });

  it("a request without S3 signs to an unmocked bucket stays an HTTP miss", async () => {
    const out = await raw("GET", "/stubs/s3ns/not-a-bucket/file.txt");
    expect(out.status).toBe(404);
    expect(JSON.parse(out.body.toString()).code).toBe("not_found");
    await stubRecorder().drain();
    const row = await db().undefinedRequest.findFirstOrThrow({ where: { namespaceId: scope.id, path: "/not-a-bucket/file.txt" } });
    expect(row.protocol).toBe("http");
  });
});
