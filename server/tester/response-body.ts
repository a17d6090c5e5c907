// Reading an answer's body: decoded from gzip, deflate or brotli as it
// streams, cut at a byte cap (a server streaming without end, or a small
// compressed body that inflates to gigabytes, must not fill memory), and
// presented as text when a person can read it, else base64.
import type { IncomingMessage } from "node:http";
import zlib from "node:zlib";

export interface BodyRead {
  bytes: Buffer;
  truncated: boolean;
  /** Bytes that came over the wire (still compressed when the server compressed), counted up to the cut. */
  wireBytes: number;
}

function decoderFor(encoding: string, first: Buffer): zlib.Gunzip | zlib.Inflate | zlib.InflateRaw | zlib.BrotliDecompress | undefined {
  // Partial output is still wanted when the body is cut, so the decoders flush what they have.
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip(flush);
    case "deflate": {
      // RFC 9110 deflate is zlib-wrapped, but some servers send the raw stream: the zlib header says which.
      const wrapped = first.length >= 2 ? (first[0] & 0x0f) === 8 && ((first[0] << 8) | first[1]) % 31 === 0 : first[0] === 0x78;
      return wrapped ? zlib.createInflate(flush) : zlib.createInflateRaw(flush);
    }
    case "br":
      return zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}

/**
 * Reads the body of `res` up to `maxBytes` decoded bytes. On the cut the
 * response is destroyed (its socket is not reusable mid-body) and what was
 * read so far is returned with `truncated`. `failWith` turns a stream error
 * into the error to reject with (the caller knows whether it was a timeout).
 */
export function readBody(res: IncomingMessage, maxBytes: number, failWith: (err: unknown) => Error): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
    const chunks: Buffer[] = [];
    let kept = 0;
    let wire = 0;
    let truncated = false;
    let settled = false;
    let decoder: ReturnType<typeof decoderFor>;
    let decoderChecked = false;

    const finish = () => {
      if (settled) return;
      settled = true;
      resolve({ bytes: Buffer.concat(chunks, kept), truncated, wireBytes: wire });
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      decoder?.destroy();
      reject(failWith(err));
    };
    const cut = () => {
      truncated = true;
      finish();
      decoder?.destroy();
      res.destroy();
    };
    const keep = (chunk: Buffer) => {
      if (settled) return;
      const room = maxBytes - kept;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        kept += room;
        return cut();
      }
      chunks.push(chunk);
      kept += chunk.length;
    };

    // The connection may have died while the caller was busy (storing cookies): no event would come.
    if (res.destroyed && !res.readableEnded) return fail(Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" }));
    res.on("data", (chunk: Buffer) => {
      if (settled) return;
      wire += chunk.length;
      if (!decoderChecked) {
        decoderChecked = true;
        decoder = decoderFor(encoding, chunk);
        if (decoder) {
          decoder.on("data", keep);
          decoder.on("end", finish);
          decoder.on("error", (err) => fail(new Error(`the body is not valid ${encoding} (${err.message}), though Content-Encoding says it is`)));
        }
      }
      if (decoder) decoder.write(chunk);
      else keep(chunk);
      // A compressed body still counts against the cap on the wire: a server streaming without end is cut either way.
      if (!settled && wire > maxBytes) cut();
    });
    res.on("end", () => {
      if (decoder) decoder.end();
      else finish();
    });
    res.on("error", fail);
    res.on("close", () => {
      if (!settled && !res.complete) fail(Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" }));
    });
  });
}

const TEXTUAL_APPLICATION = new Set([
  "json",
  "xml",
  "javascript",
  "ecmascript",
  "x-javascript",
  "x-www-form-urlencoded",
  "graphql",
  "yaml",
  "x-yaml",
  "csv",
  "ndjson",
  "x-ndjson",
  "html",
  "xhtml",
  "sql",
  "x-sh",
]);

/** Whether a Content-Type names text: text/*, the application types above, and any +json, +xml or +yaml. */
export function isTextualContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(";")[0].trim().toLowerCase();
  const [type, subtype = ""] = mime.split("/");
  if (type === "text") return true;
  if (/\+(json|xml|yaml)$/.test(subtype)) return true;
  return type === "application" && TEXTUAL_APPLICATION.has(subtype);
}

function charsetOf(contentType: string | undefined): string {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "");
  return m ? m[1].toLowerCase() : "utf-8";
}

function textDecoder(label: string, fatal: boolean): TextDecoder {
  try {
    return new TextDecoder(label, { fatal });
  } catch {
    return new TextDecoder("utf-8", { fatal });
  }
}

/**
 * Text for a textual Content-Type (decoded with its charset) or for bytes
 * that are valid UTF-8 without NUL characters; base64 for everything else. A
 * cut body may end inside a UTF-8 sequence: that tail is dropped, not judged.
 */
export function encodeBody(bytes: Buffer, contentType: string | undefined, truncated: boolean): { body: string; bodyEncoding: "utf8" | "base64" } {
  if (bytes.length === 0) return { body: "", bodyEncoding: "utf8" };
  const stream = { stream: truncated };
  if (isTextualContentType(contentType)) return { body: textDecoder(charsetOf(contentType), false).decode(bytes, stream), bodyEncoding: "utf8" };
  if (!bytes.includes(0)) {
    try {
      return { body: textDecoder("utf-8", true).decode(bytes, stream), bodyEncoding: "utf8" };
    } catch {}
  }
  return { body: bytes.toString("base64"), bodyEncoding: "base64" };
}
