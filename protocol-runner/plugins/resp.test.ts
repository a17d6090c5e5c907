import { describe, expect, it } from "vitest";
import { encodeResp, respDecoder, RespProtocolError } from "./resp";

describe("respDecoder", () => {
  it("cuts commands split and joined across chunks, with multi-byte arguments", () => {
    const d = respDecoder();
    const wire = Buffer.from("*2\r\n$3\r\nGET\r\n$5\r\nnaïv\r\n*1\r\n$4\r\nPING\r\n");
    const got = [...d.push(wire.subarray(0, 7)), ...d.push(wire.subarray(7, 20)), ...d.push(wire.subarray(20))];
    expect(got).toEqual([["GET", "naïv"], ["PING"]]);
  });

  it("reads inline commands (a person at nc) and skips empty lines", () => {
    expect(respDecoder().push(Buffer.from("\r\nGET  key\r\nPING\n"))).toEqual([["GET", "key"], ["PING"]]);
  });

  it("refuses a frame that is not RESP", () => {
    expect(() => respDecoder().push(Buffer.from("*1\r\n:5\r\n"))).toThrow(RespProtocolError);
    expect(() => respDecoder().push(Buffer.from("*x\r\n"))).toThrow(RespProtocolError);
  });
});

describe("encodeResp", () => {
  it("encodes each kind of payload as the reply a Redis client expects", () => {
    expect(encodeResp("héllo")).toBe("$6\r\nhéllo\r\n");
    expect(encodeResp(42)).toBe(":42\r\n");
    expect(encodeResp(1.5)).toBe("$3\r\n1.5\r\n");
    expect(encodeResp(null)).toBe("$-1\r\n");
    expect(encodeResp(true)).toBe(":1\r\n");
    expect(encodeResp(["a", 1, null])).toBe("*3\r\n$1\r\na\r\n:1\r\n$-1\r\n");
    expect(encodeResp({ simple: "OK" })).toBe("+OK\r\n");
    expect(encodeResp({ error: "ERR bad\r\nthing" })).toBe("-ERR bad thing\r\n");
    expect(encodeResp({ a: 1 })).toBe('$7\r\n{"a":1}\r\n');
  });
});
