// HTTP mocks with the clients' wire fields, over a real socket: decoded
// base64 payloads as exact bytes (read with node:net, no client decoding in
// between) and regex routes (http.routePattern).
import net from "node:net";
import { describe, expect, it } from "vitest";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const stub = useStubServer("wirehttp");

/** One HTTP/1.1 exchange on a raw socket: the status line, headers (lower-case) and body bytes. */
function rawGet(path: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const { port } = new URL(stub.origin);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(`GET /stubs/wirehttp${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const [statusLine, ...lines] = all.subarray(0, split).toString("latin1").split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: all.subarray(split + 4) });
    });
  });
}

describe("response.decode = base64", () => {
  it("answers the decoded bytes exactly (binary-safe), with the mock's Content-Type or octet-stream", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x7f]);
    await stub.save({ http: { route: "/logo.png" }, response: { decode: "base64", payload: bytes.toString("base64"), headers: { "Content-Type": "image/png" } } });
    await stub.save({ http: { route: "/blob" }, response: { statusCode: 202, decode: "base64", payload: bytes.toString("base64url") } });
    const png = await rawGet("/logo.png");
    expect(png.status).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers["content-length"]).toBe(String(bytes.length));
    expect(png.body.equals(bytes)).toBe(true);
    const blob = await rawGet("/blob");
    expect(blob.status).toBe(202);
    expect(blob.headers["content-type"]).toBe("application/octet-stream");
    expect(blob.body.equals(bytes)).toBe(true);
  });
});

describe("http.routePattern", () => {
  it("serves the paths the regex matches (whole path, RE2) and not others; a literal route of equal priority wins", async () => {
    await stub.save({ http: { routePattern: "/files/[a-z]+\\.(txt|md)", httpMethod: "GET" }, response: { payload: "by pattern" } });
    await stub.save({ http: { route: "/files/readme.md", httpMethod: "GET" }, response: { payload: "literal" } });
    expect((await rawGet("/files/notes.txt")).body.toString()).toBe("by pattern");
    expect((await rawGet("/files/readme.md")).body.toString()).toBe("literal");
    expect((await rawGet("/files/notes.txt.bak")).status).toBe(404);
    expect((await rawGet("/files/Notes.txt")).status).toBe(404);
  });
});
