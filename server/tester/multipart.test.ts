// multipart/form-data bytes, checked by undici's own multipart parser.
import { describe, expect, it } from "vitest";
import { encodeMultipart, newBoundary } from "./multipart";

async function parse(body: Buffer, boundary: string): Promise<FormData> {
  return new Request("http://x/", { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: new Uint8Array(body) }).formData();
}

describe("encodeMultipart", () => {
  it("round-trips text and file parts", async () => {
    const bytes = Buffer.from([0, 255, 13, 10, 45, 45]);
    const { body, boundary } = encodeMultipart([
      { name: "a", value: "1" },
      { name: "a", value: "2" },
      { name: "empty", value: "" },
      { name: "file", value: bytes, fileName: "b.bin" },
      { name: "typed", value: "{}", contentType: "application/json" },
    ]);
    const form = await parse(body, boundary);
    expect(form.getAll("a")).toEqual(["1", "2"]);
    expect(form.get("empty")).toBe("");
    const file = form.get("file") as File;
    expect(file.name).toBe("b.bin");
    expect(file.type).toBe("application/octet-stream");
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    expect(form.get("typed")).toBe("{}");
  });

  it.each([
    ['a "quoted" name', 'a "quoted" name'],
    ["line\r\nbreak", "line\r\nbreak"],
    ["ünïcode", "ünïcode"],
  ])("escapes the name %j so the header stays one line", async (name, parsed) => {
    const { body, boundary } = encodeMultipart([{ name, value: "v" }]);
    expect(body.toString().split("\r\n")[1]).not.toMatch(/[\r\n]/);
    expect([...(await parse(body, boundary)).keys()]).toEqual([parsed]);
  });

  it("an empty form is just the closing boundary", () => {
    expect(encodeMultipart([], "B").body.toString()).toBe("--B--\r\n");
  });

  it("boundaries are Postman-shaped and differ", () => {
    const a = newBoundary();
    expect(a).toMatch(/^-{26}\d{24}$/);
    expect(newBoundary()).not.toBe(a);
  });
});
