// Save-time guard for proxy mocks: a `proxy.target` that is this instance's own
// /stubs URL would send every matching request round the loop (the Via check in
// server/transport/stub-proxy.ts stops it at run time; this says so at once,
// naming the field). "Own" is PUBLIC_URL, or a loopback / unspecified / this
// host's name with the serving PORT. docs/decisions.md, "Proxy and webhooks".
import os from "node:os";
import { env } from "@/server/env";
import { errors } from "@/server/errors";

const LOCAL_NAMES = new Set(["localhost", "0.0.0.0", "[::]", "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]"]);

function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return LOCAL_NAMES.has(host) || host.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(host) || host === os.hostname().toLowerCase() || host === env().HOST.toLowerCase();
}

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === "https:" ? 443 : 80));
}

function underStubs(pathname: string, base = ""): boolean {
  const prefix = `${base.replace(/\/+$/, "")}/stubs`;
  const path = pathname.replace(/\/{2,}/g, "/");
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Whether `target` resolves to this instance's own stub URL. */
export function isOwnStubUrl(target: string): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  const publicUrl = env().PUBLIC_URL;
  if (publicUrl) {
    try {
      const own = new URL(publicUrl);
      if (url.hostname.toLowerCase() === own.hostname.toLowerCase() && portOf(url) === portOf(own) && underStubs(url.pathname, own.pathname)) return true;
    } catch {}
  }
  return isLocalHost(url.hostname) && portOf(url) === env().PORT && underStubs(url.pathname);
}

/** 400 naming proxy.target when a mock would proxy to its own stubs. */
export function assertProxyTargetNotSelf(proxy: { target: string } | undefined): void {
  if (!proxy || !isOwnStubUrl(proxy.target)) return;
  throw errors.validation("The proxy target is this server's own /stubs URL: every request would come back to the same mock", [
    { location: "body", field: "proxy.target", message: "points at this instance's own stubs" },
  ]);
}
