// Unary and server-streaming gRPC calls served on the HTTP/2 stream itself,
// before grpc-js builds its per-call machinery (interceptors, Metadata,
// stream decoders, the handler's call object): that machinery cost as much
// CPU per call as our whole serving core under G1 (docs/decisions.md, "The
// lean gRPC path"). The bytes on the wire are grpc-js's: the same response
// headers, one DATA frame per message, the same trailers, trailers-only
// errors, the same messages for a missing or second request message, an
// oversized one, a compressed one, a bad or expired grpc-timeout. A mock sees
// the metadata grpc-js would hand it. Calls this path does not take (a
// compressed request encoding, a content type grpc-js refuses, a path that
// is not unary or server-streaming) stay grpc-js's.
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from "node:http2";
import * as grpc from "@grpc/grpc-js";
import type { SingleRequestCall, Sink } from "./call";

/** grpc-js's default grpc.max_receive_message_length. */
const MAX_RECEIVE_MESSAGE = 4 * 1024 * 1024;
/** Headers grpc-js removes from the metadata a handler sees. */
const NOT_METADATA = new Set(["grpc-timeout", "grpc-encoding", "grpc-accept-encoding", "accept-encoding", "te", "content-type"]);
const LEGAL_KEY = /^[:0-9a-z_.-]+$/;
const LEGAL_TEXT_VALUE = /^[ -~]*$/;
const DEADLINE = /(\d{1,8})\s*([HMSmun])/;
const DEADLINE_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 0.001, n: 0.000001 };
const CONTENT_TYPE = "application/grpc+proto";
const RESPONSE_HEADERS = { ":status": 200, "content-type": CONTENT_TYPE, "grpc-accept-encoding": "identity,deflate,gzip", "grpc-encoding": "identity" };
const RESPONSE_OPTIONS = { waitForTrailers: true };
const OK_TRAILERS = { "grpc-status": "0", "grpc-message": "OK" };
const EMPTY_MESSAGE = Buffer.alloc(5);

/** Whether this path can take the call: grpc-js would accept its content type, and its messages are not compressed. */
export function takesLean(headers: IncomingHttpHeaders): boolean {
  const type = headers["content-type"];
  if (typeof type !== "string" || !type.startsWith("application/grpc")) return false;
  const encoding = headers["grpc-encoding"];
  return encoding === undefined || encoding === "identity";
}

/**
 * The metadata grpc-js's Metadata.fromHttp2Headers would give the handler,
 * as call.ts's metadataHeaders renders it: binary values re-encoded as
 * padded base64, a comma-separated custom binary header split, a key whose
 * value grpc-js refuses kept up to the refused value.
 */
export function metadataOf(headers: IncomingHttpHeaders): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(headers)) {
    if (key.charCodeAt(0) === 58 || NOT_METADATA.has(key)) continue;
    const value = headers[key];
    if (value === undefined) continue;
    const values: string[] = [];
    if (!LEGAL_KEY.test(key)) continue;
    if (key.endsWith("-bin")) {
      const parts = Array.isArray(value) ? value : key.startsWith("grpc-") ? [value] : value.split(",").map((v) => v.trim());
      for (const p of parts) values.push(Buffer.from(p, "base64").toString("base64"));
    } else {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (!LEGAL_TEXT_VALUE.test(v)) break;
        values.push(v);
      }
    }
    if (values.length) out[key] = values;
  }
  return out;
}

/** A message with its 5-byte prefix (uncompressed); static payloads' frames are built once. */
const framed = new WeakMap<Buffer, Buffer>();
function frameOf(message: Buffer): Buffer {
  const known = framed.get(message);
  if (known) return known;
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  message.copy(frame, 5);
  framed.set(message, frame);
  return frame;
}

/** Where a lean call's answer goes: grpc-js's response headers, messages and trailers on the HTTP/2 stream. */
class StreamSink implements Sink {
  private headersSent = false;
  private finished = false;
  private expired = false;
  private cancelListeners: (() => void)[] | undefined;
  deadline: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: ServerHttp2Stream,
    private readonly unary: boolean,
  ) {}

  fail(code: grpc.status, details: string, metadata?: grpc.Metadata) {
    this.status({ "grpc-status": String(code), "grpc-message": encodeURI(details), ...metadata?.toHttp2Headers() });
  }

  write(message: Buffer) {
    if (this.gone()) return;
    if (!this.headersSent) {
      this.headersSent = true;
      this.stream.respond(RESPONSE_HEADERS, RESPONSE_OPTIONS);
    }
    this.stream.write(frameOf(message));
  }

  end() {
    // A unary answer is one message, even an empty one (grpc-js's callback(null, empty)).
    if (this.unary && !this.headersSent && !this.gone()) {
      this.headersSent = true;
      this.stream.respond(RESPONSE_HEADERS, RESPONSE_OPTIONS);
      this.stream.write(EMPTY_MESSAGE);
    }
    this.status(OK_TRAILERS);
  }

  cancelled() {
    return this.expired || this.stream.destroyed || this.stream.closed;
  }

  /** Answered, or nothing more can be answered. */
  over() {
    return this.finished || this.cancelled();
  }

  onCancel(listener: () => void) {
    (this.cancelListeners ??= []).push(listener);
    this.stream.once("close", listener);
  }

  /** The call's deadline passed: DEADLINE_EXCEEDED, and whatever still waits (a mock's delay) sees a cancelled call. */
  expire() {
    this.fail(grpc.status.DEADLINE_EXCEEDED, "Deadline exceeded");
    this.expired = true;
    for (const listener of this.cancelListeners ?? []) listener();
  }

  /** Nothing more can be sent: answered, or the stream is closed. */
  private gone() {
    return this.finished || this.stream.destroyed || this.stream.closed;
  }

  private status(trailers: OutgoingHttpHeaders) {
    if (this.gone()) return;
    this.finished = true;
    clearTimeout(this.deadline);
    if (this.headersSent) {
      this.stream.once("wantTrailers", () => this.stream.sendTrailers(trailers));
      this.stream.end();
    } else {
      // Trailers-only, as grpc-js answers a call that fails before any message.
      this.stream.respond({ ...trailers, ":status": 200, "content-type": CONTENT_TYPE }, { endStream: true });
    }
  }
}

/**
 * Serves one call of a unary (`unary`) or server-streaming method on its
 * stream: reads the one request message, then hands it to `serveCall`.
 */
export function serveLeanCall(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, serveCall: SingleRequestCall, unary: boolean, path: string) {
  const sink = new StreamSink(stream, unary);
  // An error always comes with a close; nothing can be sent on the stream after it.
  stream.on("error", () => {});
  const timeout = headers["grpc-timeout"];
  if (timeout !== undefined) {
    const match = DEADLINE.exec(String(timeout));
    if (!match) {
      sink.fail(grpc.status.INTERNAL, `Invalid grpc-timeout value "${timeout}"`);
      return void stream.resume();
    }
    sink.deadline = setTimeout(() => sink.expire(), (Number(match[1]) * DEADLINE_UNIT_MS[match[2]]) | 0);
    stream.once("close", () => clearTimeout(sink.deadline));
  }
  let first: Buffer | undefined;
  let parts: Buffer[] | undefined;
  let size = 0;
  /** The first message's length, once its prefix is in; then a second message's, once its prefix is. */
  let length = -1;
  let second = -1;
  const refuse = (code: grpc.status, details: string) => {
    sink.fail(code, details);
    stream.removeAllListeners("data");
    stream.resume();
  };
  stream.on("data", (chunk: Buffer) => {
    if (first === undefined) first = chunk;
    else (parts ??= [first]).push(chunk);
    size += chunk.length;
    if (length < 0 && size >= 5) {
      // Refused before the whole oversized message arrives, as grpc-js's decoder does.
      length = (parts ? Buffer.concat(parts, 5) : first).readUInt32BE(1);
      if (length > MAX_RECEIVE_MESSAGE) return refuse(grpc.status.RESOURCE_EXHAUSTED, `Received message larger than max (${length} vs ${MAX_RECEIVE_MESSAGE})`);
    }
    if (length >= 0 && second < 0 && size >= 5 + length + 5) {
      // Bytes of a second message (a wrong or hostile client): judged as they come, not buffered without end.
      second = (parts ? Buffer.concat(parts, size) : first).readUInt32BE(5 + length + 1);
      if (second > MAX_RECEIVE_MESSAGE) return refuse(grpc.status.RESOURCE_EXHAUSTED, `Received message larger than max (${second} vs ${MAX_RECEIVE_MESSAGE})`);
    }
    if (second >= 0 && size >= 5 + length + 5 + second) refuse(grpc.status.UNIMPLEMENTED, `Received a second request message for server streaming method ${path}`);
  });
  stream.once("end", () => {
    if (sink.over()) return;
    // As grpc-js's decoder: a partial message is no message; the compressed flag is not checked
    // under the identity encoding (the bytes are taken as they are).
    if (length < 0 || size < 5 + length) return sink.fail(grpc.status.UNIMPLEMENTED, `Received no request message for server streaming method ${path}`);
    const body = parts ? Buffer.concat(parts, size) : first!;
    serveCall(metadataOf(headers), body.subarray(5, 5 + length), sink);
  });
}
