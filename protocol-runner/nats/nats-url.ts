// The outbound side of a nats protocol server: its URL checked like any
// user-supplied target (nats:// or tls://, no cloud-metadata address; private
// ones as OUTBOUND_ALLOW_PRIVATE says), its host name resolved through the
// guard before the client connects (the nats client resolves again itself;
// that second lookup is not guarded, a window documented in decisions), and
// client errors as short reasons for the server's row.
import { promisify } from "node:util";
import { assertAllowedTarget, BlockedTargetError, safeLookup } from "@/server/lib/ssrf";

export function checkNatsUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new BlockedTargetError(url, "scheme", `not a URL: ${url}`);
  }
  if (u.protocol !== "nats:" && u.protocol !== "tls:") throw new BlockedTargetError(url, "scheme", `${u.protocol}// is not a NATS URL (nats:// or tls://)`);
  assertAllowedTarget(new URL(`http://${u.host}/`));
  return u;
}

const lookup = promisify(safeLookup as unknown as (host: string, opts: object, cb: (err: Error | null, address: string) => void) => void);

/** Resolves `host` through the outbound guard: a name that points at a refused address is refused. */
export async function resolveAllowed(host: string): Promise<void> {
  await lookup(host.replace(/^\[|\]$/g, ""), {});
}

/** A client error as a short reason for the protocol server's row. */
export function brokerReason(err: unknown, url: string): string {
  if (err instanceof BlockedTargetError) return err.message;
  const e = err as { code?: string; message?: string };
  const where = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  const message = e?.message ?? String(err);
  if (e?.code === "CONNECTION_REFUSED" || /ECONNREFUSED/.test(message)) return `connection refused by ${where}`;
  if (e?.code === "ENOTFOUND" || /ENOTFOUND/.test(message)) return `host not found: ${where}`;
  if (e?.code === "AUTHORIZATION_VIOLATION" || /authorization violation/i.test(message)) return `AUTHORIZATION_VIOLATION: ${where} refused the credentials`;
  if (e?.code === "TIMEOUT") return `no answer from ${where}`;
  return `${where}: ${message}`;
}
