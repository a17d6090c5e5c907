// Inside the isolate: atob and btoa, which V8 alone does not have (they are
// web APIs). Latin-1 strings in and out, as in browsers.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const INDEX: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]));

function invalid(message: string): Error {
  const e = new Error(message);
  e.name = "InvalidCharacterError";
  return e;
}

export function btoa(input: unknown): string {
  const s = String(input);
  let out = "";
  for (let i = 0; i < s.length; i += 3) {
    const a = s.charCodeAt(i);
    const b = i + 1 < s.length ? s.charCodeAt(i + 1) : NaN;
    const c = i + 2 < s.length ? s.charCodeAt(i + 2) : NaN;
    if (a > 255 || b > 255 || c > 255) throw invalid("btoa: the string contains characters outside of the Latin1 range");
    const n = (a << 16) | ((b || 0) << 8) | (c || 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63] + (Number.isNaN(b) ? "=" : ALPHABET[(n >> 6) & 63]) + (Number.isNaN(c) ? "=" : ALPHABET[n & 63]);
  }
  return out;
}

export function atob(input: unknown): string {
  let s = String(input).replace(/[\t\n\f\r ]/g, "");
  if (s.length % 4 === 0) s = s.replace(/==?$/, "");
  if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw invalid("atob: the string to be decoded is not correctly encoded");
  let out = "";
  let bits = 0;
  let buffer = 0;
  for (const ch of s) {
    buffer = (buffer << 6) | INDEX[ch];
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((buffer >> bits) & 255);
    }
  }
  return out;
}
