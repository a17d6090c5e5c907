// How a TCP byte stream is cut into messages and how replies are framed, per
// protocol server (`options.framing`): newline-delimited, 4-byte big-endian
// length-prefixed, or raw (what arrives until the connection is quiet).
import type { TcpFraming } from "@/server/contracts/protocol-servers";

/** Larger messages close the connection: a mock listener is not a sink for unbounded input. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

export class FrameTooLarge extends Error {}

export interface Deframer {
  /** Adds bytes; returns the complete messages they finish. */
  push(chunk: Buffer): Buffer[];
  /** What is buffered (raw framing: the message ending at idle time-out, or at close). */
  flush(): Buffer | undefined;
}

export function deframer(framing: TcpFraming): Deframer {
  let buffered: Buffer = Buffer.alloc(0);
  const take = (end: number, skip: number) => {
    const message = buffered.subarray(0, end);
    buffered = buffered.subarray(end + skip);
    return message;
  };
  const guard = () => {
    if (buffered.length > MAX_MESSAGE_BYTES + 4) throw new FrameTooLarge(`a message is larger than ${MAX_MESSAGE_BYTES} bytes`);
  };
  return {
    push(chunk) {
      buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
      const out: Buffer[] = [];
      if (framing === "newline") {
        for (let nl = buffered.indexOf(0x0a); nl >= 0; nl = buffered.indexOf(0x0a)) {
          const line = take(nl, 1);
          // CRLF clients (telnet, nc -C) send the same message.
          out.push(line.length && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line);
        }
      } else if (framing === "length-prefixed") {
        while (buffered.length >= 4) {
          const length = buffered.readUInt32BE(0);
          if (length > MAX_MESSAGE_BYTES) throw new FrameTooLarge(`a message declares ${length} bytes, more than ${MAX_MESSAGE_BYTES}`);
          if (buffered.length < 4 + length) break;
          buffered = buffered.subarray(4);
          out.push(take(length, 0));
        }
      }
      guard();
      return out;
    },
    flush() {
      if (!buffered.length) return undefined;
      return take(buffered.length, 0);
    },
  };
}

/** A reply on the wire in the server's framing. */
export function frame(framing: TcpFraming, reply: string): Buffer {
  const body = Buffer.from(reply, "utf8");
  if (framing === "newline") return Buffer.concat([body, Buffer.from("\n")]);
  if (framing === "length-prefixed") {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    return Buffer.concat([head, body]);
  }
  return body;
}
