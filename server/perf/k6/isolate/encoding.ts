// k6/encoding inside the isolate: b64encode/b64decode with k6's four
// alphabets. Strings are UTF-8 encoded first, as in k6 (bare V8 has no
// TextEncoder, so the conversion is here).
import { atob, btoa } from "../../../tester/sandbox/isolate/base64";

export function utf8Encode(s: string): string {
  // Latin-1 "binary string" of the UTF-8 bytes.
  return unescape(encodeURIComponent(s));
}

export function utf8Decode(binary: string): string {
  try {
    return decodeURIComponent(escape(binary));
  } catch {
    return binary;
  }
}

function toBinary(input: unknown): string {
  if (input instanceof ArrayBuffer) return String.fromCharCode(...new Uint8Array(input));
  if (ArrayBuffer.isView(input)) return String.fromCharCode(...new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  return utf8Encode(String(input));
}

export function b64encode(input: unknown, encoding: string = "std"): string {
  let out = btoa(toBinary(input));
  if (encoding === "url" || encoding === "rawurl") out = out.replace(/\+/g, "-").replace(/\//g, "_");
  if (encoding === "rawstd" || encoding === "rawurl") out = out.replace(/=+$/, "");
  return out;
}

export function b64decode(input: unknown, encoding: string = "std", format?: string): ArrayBuffer | string {
  let s = String(input).replace(/-/g, "+").replace(/_/g, "/");
  while (s.length % 4) s += "=";
  void encoding;
  const binary = atob(s);
  if (format === "s") return utf8Decode(binary);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}
