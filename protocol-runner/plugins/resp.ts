// RESP2, the Redis wire protocol, as the plugin listener speaks it: commands
// arrive as arrays of bulk strings (or, from a person at `nc`, as inline
// lines), and a mock's payload is encoded as the reply a Redis client expects.
import { MAX_MESSAGE_BYTES, FrameTooLarge } from "../socket/framing";

export class RespProtocolError extends Error {}

const CRLF = Buffer.from("\r\n");

/** Cuts a byte stream into commands, each a list of arguments (the command name first). */
export function respDecoder() {
  let buffered: Buffer = Buffer.alloc(0);

  /** One command from the start of the buffer: [args, bytes used], or undefined when incomplete. */
  const parseOne = (): [string[], number] | undefined => {
    if (buffered[0] !== 0x2a /* '*' */) {
      // An inline command: one line of space-separated words.
      const nl = buffered.indexOf(0x0a);
      if (nl < 0) return undefined;
      const line = buffered.subarray(0, nl).toString("utf8").replace(/\r$/, "");
      return [line.split(/\s+/).filter(Boolean), nl + 1];
    }
    const headerEnd = buffered.indexOf(CRLF);
    if (headerEnd < 0) return undefined;
    const count = Number(buffered.subarray(1, headerEnd).toString("latin1"));
    if (!Number.isInteger(count) || count < 0 || count > 1024 * 1024) throw new RespProtocolError("invalid multibulk length");
    let at = headerEnd + 2;
    const args: string[] = [];
    for (let i = 0; i < count; i++) {
      if (at >= buffered.length) return undefined;
      if (buffered[at] !== 0x24 /* '$' */) throw new RespProtocolError(`expected '$', got '${String.fromCharCode(buffered[at])}'`);
      const lenEnd = buffered.indexOf(CRLF, at);
      if (lenEnd < 0) return undefined;
      const len = Number(buffered.subarray(at + 1, lenEnd).toString("latin1"));
      if (!Number.isInteger(len) || len < 0 || len > MAX_MESSAGE_BYTES) throw new RespProtocolError("invalid bulk length");
      const start = lenEnd + 2;
      if (buffered.length < start + len + 2) return undefined;
      args.push(buffered.subarray(start, start + len).toString("utf8"));
      at = start + len + 2;
    }
    return [args, at];
  };

  return {
    push(chunk: Buffer): string[][] {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const out: string[][] = [];
      for (let next = buffered.length ? parseOne() : undefined; next; next = buffered.length ? parseOne() : undefined) {
        const [args, used] = next;
        buffered = buffered.subarray(used);
        if (args.length) out.push(args);
      }
      if (buffered.length > MAX_MESSAGE_BYTES + 1024) throw new FrameTooLarge(`a command is larger than ${MAX_MESSAGE_BYTES} bytes`);
      return out;
    },
  };
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
/** Error and simple-string replies are one line: no CR or LF inside. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, " ");

/** A mock's rendered payload as a RESP2 reply. */
export function encodeResp(payload: unknown): string {
  if (payload === null || payload === undefined) return "$-1\r\n";
  if (typeof payload === "string") return bulk(payload);
  if (typeof payload === "number") return Number.isInteger(payload) ? `:${payload}\r\n` : bulk(String(payload));
  if (typeof payload === "boolean") return `:${payload ? 1 : 0}\r\n`;
  if (Array.isArray(payload)) return `*${payload.length}\r\n${payload.map(encodeResp).join("")}`;
  const obj = payload as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && typeof obj.simple === "string") return `+${oneLine(obj.simple)}\r\n`;
  if (keys.length === 1 && typeof obj.error === "string") return `-${oneLine(obj.error)}\r\n`;
  return bulk(JSON.stringify(payload));
}

export const respError = (message: string) => `-${oneLine(message)}\r\n`;
