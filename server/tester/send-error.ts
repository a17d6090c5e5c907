// Why a request could not be sent or answered, as one typed error: a `code`
// the runner and reports group by, and a message written for the person who
// wrote the request (what went wrong and what to change), never a stack trace
// or a bare errno. Node's socket, DNS, TLS and parser errors are translated
// here and nowhere else.
import { BlockedTargetError, type BlockReason } from "@/server/lib/ssrf";

export const SEND_ERROR_CODES = ["timeout", "connection_refused", "dns", "tls", "blocked", "aborted", "too_many_redirects", "invalid_url", "protocol"] as const;
export type SendErrorCode = (typeof SEND_ERROR_CODES)[number];

export class SendError extends Error {
  constructor(
    readonly code: SendErrorCode,
    message: string,
    readonly details: { url?: string; reason?: BlockReason } = {},
  ) {
    super(message);
    this.name = "SendError";
  }
}

const TLS_UNTRUSTED: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "is signed by a self-signed certificate authority",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "is signed by an unknown certificate authority",
  UNABLE_TO_GET_ISSUER_CERT: "is signed by an unknown certificate authority",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "is signed by an unknown certificate authority",
  CERT_UNTRUSTED: "is not trusted",
  CERT_REJECTED: "was rejected",
  CERT_HAS_EXPIRED: "has expired",
  CERT_NOT_YET_VALID: "is not valid yet",
  CERT_REVOKED: "has been revoked",
  ERR_TLS_CERT_ALTNAME_INVALID: "does not name this host",
  HOSTNAME_MISMATCH: "does not name this host",
};

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NODATA", "EAI_NONAME", "EAI_FAIL"]);
const UNREACHABLE = new Set(["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "ENETDOWN", "EADDRNOTAVAIL"]);
const INVALID_HEADER = new Set(["ERR_INVALID_HTTP_TOKEN", "ERR_INVALID_CHAR", "ERR_HTTP_INVALID_HEADER_VALUE", "ERR_UNESCAPED_CHARACTERS"]);

/** The SendError an error met while sending to `url` stands for. */
export function toSendError(err: unknown, url: URL | string): SendError {
  if (err instanceof SendError) return err;
  const where = typeof url === "string" ? url : url.host;
  const href = String(url);
  if (err instanceof BlockedTargetError) return new SendError("blocked", err.message, { url: href, reason: err.reason });
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const code = e?.code ?? "";
  const detail = e?.message ?? String(err);

  if (code in TLS_UNTRUSTED) {
    return new SendError("tls", `The TLS certificate of ${where} ${TLS_UNTRUSTED[code]} (${code}). Turn off TLS certificate verification in the request's settings to accept it anyway.`, { url: href });
  }
  if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_") || code === "EPROTO" || /\bSSL\b|\bTLS\b/.test(detail)) {
    return new SendError("tls", `The TLS handshake with ${where} failed: ${e.reason ?? detail}. Is it an https server, and does it speak a TLS version Node supports?`, { url: href });
  }
  if (DNS_CODES.has(code)) return new SendError("dns", `Could not resolve the host name of ${where} (${code}). Check the URL and your DNS.`, { url: href });
  if (code === "ECONNREFUSED") return new SendError("connection_refused", `${where} refused the connection: nothing is listening there, or a firewall said no.`, { url: href });
  if (UNREACHABLE.has(code)) return new SendError("connection_refused", `${where} cannot be reached from here (${code}).`, { url: href });
  if (code === "ETIMEDOUT") return new SendError("timeout", `Connecting to ${where} timed out (${code}).`, { url: href });
  if (code === "ECONNRESET" || code === "EPIPE") return new SendError("protocol", `${where} closed the connection before the answer was complete (${code}).`, { url: href });
  if (code.startsWith("HPE_")) return new SendError("protocol", `${where} answered something that is not valid HTTP/1.1 (${code}: ${e.reason ?? detail}).`, { url: href });
  if (code === "ERR_INVALID_URL") return new SendError("invalid_url", `"${href}" is not a valid URL.`, { url: href });
  if (INVALID_HEADER.has(code)) return new SendError("protocol", `The request could not be sent as written: ${detail}.`, { url: href });
  if (code === "ABORT_ERR" || e?.name === "AbortError") return new SendError("aborted", "The request was cancelled.", { url: href });
  return new SendError("protocol", `Sending to ${where} failed: ${detail}`, { url: href });
}
