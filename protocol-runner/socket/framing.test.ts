// The TCP framings cut a byte stream into messages whatever the chunking, and
// refuse a message over the limit instead of buffering without end.
import { describe, expect, it } from "vitest";
import { deframer, frame, FrameTooLarge, MAX_MESSAGE_BYTES } from "./framing";

const texts = (bufs: Buffer[]) => bufs.map((b) => b.toString());

describe("deframer", () => {
  it("newline: one message per line, CRLF or LF, byte by byte or all at once", () => {
    const input = Buffer.from("a\r\nbc\n\nd");
    const whole = deframer("newline");
    expect(texts(whole.push(input))).toEqual(["a", "bc", ""]);
    expect(whole.flush()?.toString()).toBe("d");
    const bytewise = deframer("newline");
    const out: Buffer[] = [];
    for (const byte of input) out.push(...bytewise.push(Buffer.from([byte])));
    expect(texts(out)).toEqual(["a", "bc", ""]);
  });

  it("length-prefixed: frames joined and split across chunks, empty frames included", () => {
    const d = deframer("length-prefixed");
    const stream = Buffer.concat([frame("length-prefixed", "héllo"), frame("length-prefixed", ""), frame("length-prefixed", "x\ny")]);
    expect(texts(d.push(stream.subarray(0, 7)))).toEqual([]);
    expect(texts(d.push(stream.subarray(7)))).toEqual(["héllo", "", "x\ny"]);
  });

  it("raw: nothing until flushed", () => {
    const d = deframer("raw");
    expect(d.push(Buffer.from("ab"))).toEqual([]);
    expect(d.push(Buffer.from("c"))).toEqual([]);
    expect(d.flush()?.toString()).toBe("abc");
    expect(d.flush()).toBeUndefined();
  });

  it("refuses a declared or buffered message over the limit", () => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(MAX_MESSAGE_BYTES + 1);
    expect(() => deframer("length-prefixed").push(head)).toThrow(FrameTooLarge);
    expect(() => deframer("newline").push(Buffer.alloc(MAX_MESSAGE_BYTES + 10, 0x61))).toThrow(FrameTooLarge);
    expect(() => deframer("raw").push(Buffer.alloc(MAX_MESSAGE_BYTES + 10, 0x61))).toThrow(FrameTooLarge);
  });
});

describe("frame", () => {
  it("appends a newline, prefixes a 4-byte big-endian length, or sends as is", () => {
    expect(frame("newline", "ok").toString()).toBe("ok\n");
    expect([...frame("length-prefixed", "ok")]).toEqual([0, 0, 0, 2, 0x6f, 0x6b]);
    expect(frame("raw", "ok").toString()).toBe("ok");
  });
});
