import { describe, expect, it } from "vitest";
import { AwsChunkedError, collectListing, decodeAwsChunked, decodeToken, encodeToken, isAwsChunked, listXml, parseRange, s3Error, xmlText, type ListedObject } from "./s3-wire";

describe("aws-chunked", () => {
  it("is recognised by Content-Encoding or a STREAMING payload hash", () => {
    expect(isAwsChunked({ "content-encoding": ["gzip, aws-chunked"] })).toBe(true);
    expect(isAwsChunked({ "x-amz-content-sha256": ["STREAMING-UNSIGNED-PAYLOAD-TRAILER"] })).toBe(true);
    expect(isAwsChunked({ "x-amz-content-sha256": ["UNSIGNED-PAYLOAD"] })).toBe(false);
  });

  it("decodes signed chunks, unsigned chunks with trailers, and binary data", () => {
    const bin = Buffer.from([0, 13, 10, 255, 48]);
    const signed = Buffer.concat([Buffer.from(`5;chunk-signature=${"f".repeat(64)}\r\n`), bin, Buffer.from(`\r\n0;chunk-signature=${"0".repeat(64)}\r\n\r\n`)]);
    expect(decodeAwsChunked(signed).bytes.equals(bin)).toBe(true);
    const trailer = decodeAwsChunked(Buffer.from("3\r\nabc\r\n2\r\nde\r\n0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n"));
    expect(trailer.bytes.toString()).toBe("abcde");
    expect(trailer.trailers).toEqual({ "x-amz-checksum-crc32": "AAAAAA==" });
    expect(decodeAwsChunked(Buffer.from("0\r\n")).bytes.length).toBe(0);
  });

  it("refuses malformed bodies with AwsChunkedError", () => {
    for (const body of ["zz\r\nabc\r\n0\r\n", "5\r\nabc", "3\r\nabcXX0\r\n", "3"]) expect(() => decodeAwsChunked(Buffer.from(body))).toThrow(AwsChunkedError);
  });
});

describe("parseRange", () => {
  it("reads one byte range; several or garbage serve the whole object", () => {
    expect(parseRange("bytes=2-5", 10)).toEqual({ start: 2, end: 5 });
    expect(parseRange("bytes=5-", 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange("bytes=-3", 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange("bytes=2-500", 10)).toEqual({ start: 2, end: 9 });
    expect(parseRange("bytes=10-", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=-0", 10)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,3-4", 10)).toBeNull();
    expect(parseRange("items=1-2", 10)).toBeNull();
    expect(parseRange(undefined, 10)).toBeNull();
  });
});

describe("XML", () => {
  it("escapes text and replaces characters XML cannot carry", () => {
    expect(xmlText(`a<b>&"c'\u0001`)).toBe("a&lt;b&gt;&amp;&quot;c&apos;\ufffd");
  });

  it("writes S3 error documents; HEAD errors have no body but name the code in a header", () => {
    const out = s3Error({ status: 404, code: "NoSuchKey", message: "nope", bucket: "b", key: "k<1>" }, "rid");
    expect(out.status).toBe(404);
    expect(out.body).toContain("<Error><Code>NoSuchKey</Code><Message>nope</Message><BucketName>b</BucketName><Key>k&lt;1&gt;</Key><RequestId>rid</RequestId></Error>");
    expect(out.headers["Content-Type"]).toBe("application/xml");
    const head = s3Error({ status: 404, code: "NoSuchKey", message: "nope" }, "rid", "HEAD");
    expect(head.body).toBe("");
    expect(head.headers["x-amz-error-code"]).toBe("NoSuchKey");
  });

  it("writes a ListObjectsV2 result with a continuation token when truncated, URL-encoding keys on request", () => {
    const xml = listXml(
      { version: 2, bucket: "b", prefix: "p/", delimiter: "/", maxKeys: 1, urlEncode: true },
      { objects: [{ key: "p/a b.txt", size: 3, etag: '"x"', lastModified: new Date(0) }], commonPrefixes: [], isTruncated: true, last: "p/a b.txt" },
    );
    expect(xml).toContain("<Key>p/a%20b.txt</Key>");
    expect(xml).toContain("<KeyCount>1</KeyCount>");
    expect(xml).toContain(`<NextContinuationToken>${encodeToken("p/a b.txt")}</NextContinuationToken>`);
    expect(xml).toContain("<LastModified>1970-01-01T00:00:00.000Z</LastModified>");
  });
});

describe("continuation tokens", () => {
  it("round-trip any key and refuse what is not one", () => {
    expect(decodeToken(encodeToken("dir/é 1"))).toBe("dir/é 1");
    expect(decodeToken("not a token!")).toBeNull();
  });
});

describe("collectListing", () => {
  async function* rows(keys: string[]): AsyncGenerator<ListedObject> {
    for (const key of keys) yield { key, size: 1, etag: '"e"', lastModified: new Date(0) };
  }
  const keys = ["a/1", "a/2", "b", "c/1", "c/2/x", "d"];

  it("rolls keys up into common prefixes after the prefix, counting each once", async () => {
    const l = await collectListing(rows(keys), { prefix: "", delimiter: "/", maxKeys: 10 });
    expect(l.objects.map((o) => o.key)).toEqual(["b", "d"]);
    expect(l.commonPrefixes).toEqual(["a/", "c/"]);
    expect(l.isTruncated).toBe(false);
    const inC = await collectListing(rows(["c/1", "c/2/x"]), { prefix: "c/", delimiter: "/", maxKeys: 10 });
    expect(inC.objects.map((o) => o.key)).toEqual(["c/1"]);
    expect(inC.commonPrefixes).toEqual(["c/2/"]);
  });

  it("pages: a page ending on a common prefix resumes past all of its keys", async () => {
    const first = await collectListing(rows(keys), { prefix: "", delimiter: "/", maxKeys: 1 });
    expect(first).toMatchObject({ commonPrefixes: ["a/"], isTruncated: true, last: "a/" });
    const second = await collectListing(rows(keys.filter((k) => k > "a/")), { prefix: "", delimiter: "/", maxKeys: 2, after: first.last });
    expect(second.objects.map((o) => o.key)).toEqual(["b"]);
    expect(second.commonPrefixes).toEqual(["c/"]);
    expect(second.isTruncated).toBe(true);
  });

  it("is not truncated when the page is exactly full", async () => {
    const l = await collectListing(rows(["x", "y"]), { prefix: "", delimiter: "", maxKeys: 2 });
    expect(l.isTruncated).toBe(false);
  });
});
