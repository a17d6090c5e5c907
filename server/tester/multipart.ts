// multipart/form-data encoding (RFC 7578) for the formdata body mode. Written
// out rather than taken from undici's FormData, because the bytes must exist
// before sending: the sent request shows them, and Content-Length is set.
import { randomInt } from "node:crypto";

export interface MultipartPart {
  name: string;
  value: string | Buffer;
  /** Present for file parts: the name in Content-Disposition. */
  fileName?: string;
  contentType?: string;
}

/** Postman's shape of boundary: dashes and 24 digits, which no field value is likely to hold. */
export function newBoundary(): string {
  let digits = "";
  for (let i = 0; i < 24; i++) digits += randomInt(10);
  return `--------------------------${digits}`;
}

// The HTML standard's escaping of names in Content-Disposition: a quote or a line break would end the header.
const escapeName = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");

export function encodeMultipart(parts: readonly MultipartPart[], boundary: string = newBoundary()): { body: Buffer; boundary: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(part.name)}"`;
    if (part.fileName !== undefined) head += `; filename="${escapeName(part.fileName)}"`;
    head += "\r\n";
    const type = part.contentType ?? (part.fileName !== undefined ? "application/octet-stream" : undefined);
    if (type) head += `Content-Type: ${type.replace(/[\r\n]/g, "")}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), typeof part.value === "string" ? Buffer.from(part.value) : part.value, Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), boundary };
}
