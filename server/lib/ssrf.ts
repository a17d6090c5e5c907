// The guard on every outbound request a mock makes (proxy targets, webhooks).
// Two checks, both needed:
//   - assertAllowedTarget(url) before the request: scheme, metadata hostnames,
//     and IP literals (node:net connects to an IP literal without a lookup, so
//     the lookup hook never sees it);
//   - safeLookup at connect time: every address the name resolves to is
//     checked, and the socket connects only to the addresses checked, so a DNS
//     answer that changes between a check and the connection (rebinding)
//     cannot slip a forbidden address in.
// Policy (docs/decisions.md, "Proxy and webhooks"): cloud-metadata and
// link-local addresses are always refused; private, loopback and unspecified
// addresses are allowed unless OUTBOUND_ALLOW_PRIVATE=0, because forwarding to
// a service on the developer's own machine is the main use of a mock proxy;
// but a URL whose host comes from request data (an anonymous caller's
// `$.req.cb`) reaches them only in namespaces listed in
// OUTBOUND_ALLOW_PRIVATE_TEMPLATED. Address classification lives in
// server/contracts/outbound-target.ts (pure, so contracts refuse metadata
// targets at save time too).
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { classifyAddress, isMetadataHostname } from "@/server/contracts/outbound-target";

export type BlockReason = "scheme" | "metadata" | "private";

export class BlockedTargetError extends Error {
  constructor(
    readonly target: string,
    readonly reason: BlockReason,
    message: string,
  ) {
    super(message);
    this.name = "BlockedTargetError";
  }
}

/** `OUTBOUND_ALLOW_PRIVATE=0` (or false/no) blocks private and loopback targets; read per call so it can change in tests. */
export function privateTargetsAllowed(): boolean {
  const v = (process.env.OUTBOUND_ALLOW_PRIVATE ?? "").trim().toLowerCase();
  return !(v === "0" || v === "false" || v === "no");
}

/**
 * Which private targets one request may reach. "env": as OUTBOUND_ALLOW_PRIVATE
 * says (static URLs an editor wrote). "strict": never (a URL whose host came
 * from request data, in a namespace that did not opt in).
 */
export type PrivatePolicy = "env" | "strict";

/**
 * Namespaces whose webhook URLs built from request data may reach private and
 * loopback addresses: OUTBOUND_ALLOW_PRIVATE_TEMPLATED, a comma-separated list
 * of namespace names, or `*` for all. Read per call, like OUTBOUND_ALLOW_PRIVATE.
 */
export function requestDataMayTargetPrivate(namespace: string): boolean {
  const list = (process.env.OUTBOUND_ALLOW_PRIVATE_TEMPLATED ?? "").split(",").map((n) => n.trim()).filter(Boolean);
  return list.includes("*") || list.includes(namespace);
}

/** The policy of an outbound URL: strict when its host came from request data and its namespace did not opt in. */
export function privatePolicyFor(opts: { fromRequestData: boolean; namespace: string }): PrivatePolicy {
  return opts.fromRequestData && !requestDataMayTargetPrivate(opts.namespace) ? "strict" : "env";
}

const mayReachPrivate = (policy: PrivatePolicy) => policy === "env" && privateTargetsAllowed();

// ---------------------------------------------------------------- addresses

export { classifyAddress, parseIPv6, type AddressClass } from "@/server/contracts/outbound-target";

/**
 * Save-time check of a proxy target or webhook URL (metadata and link-local
 * hosts, non-http schemes): the reason it may not be saved, or undefined.
 * Callers report it as a 400 naming the field (`webhooks.0.url`, `proxy.target`).
 */
export { outboundTargetProblem } from "@/server/contracts/outbound-target";

// ---------------------------------------------------------------- checks

function blockedAddress(address: string, target: string, policy: PrivatePolicy): BlockedTargetError | undefined {
  const kind = classifyAddress(address);
  if (kind === "metadata") {
    return new BlockedTargetError(target, "metadata", `Outbound request to ${target} is blocked: ${address} is a cloud-metadata or link-local address, which mocks may never reach`);
  }
  if (kind === "private" && !mayReachPrivate(policy)) {
    const why =
      policy === "strict"
        ? "the URL's host comes from request data and the namespace is not in OUTBOUND_ALLOW_PRIVATE_TEMPLATED"
        : "OUTBOUND_ALLOW_PRIVATE=0";
    return new BlockedTargetError(target, "private", `Outbound request to ${target} is blocked: ${address} is a private or loopback address and ${why}`);
  }
  return undefined;
}

function blockedHostname(hostname: string): BlockedTargetError | undefined {
  if (isMetadataHostname(hostname)) return new BlockedTargetError(hostname, "metadata", `Outbound request to ${hostname} is blocked: it is a cloud-metadata host name`);
  return undefined;
}

/**
 * Throws BlockedTargetError when the URL may not be requested. Checks what is
 * known before connecting; the addresses a host name resolves to are checked by
 * safeLookup, so every request must also use it (guardedAgent does).
 * WHATWG URL parsing has already turned decimal, hex and octal IPv4 forms
 * (http://2852039166/, http://0xa9fea9fe/) into dotted quads.
 */
export function assertAllowedTarget(url: URL, policy: PrivatePolicy = "env"): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BlockedTargetError(url.origin, "scheme", `Outbound request to ${url.protocol}//${url.host} is blocked: only http and https targets are allowed`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const byName = blockedHostname(host);
  if (byName) throw byName;
  if (classifyAddress(host) !== undefined) {
    const byAddress = blockedAddress(host, url.host, policy);
    if (byAddress) throw byAddress;
  }
}

type Resolver = (hostname: string, options: dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

/**
 * A `lookup` for node:net / node:http that resolves the name itself and fails
 * with BlockedTargetError when ANY of its addresses is forbidden (a name that
 * mixes a public and a metadata address is refused outright rather than
 * filtered, as such an answer is an attack, not a configuration).
 */
export function createSafeLookup(resolve: Resolver = dns.lookup as Resolver, policy: PrivatePolicy = "env"): LookupFunction {
  return (hostname, options, callback) => {
    const byName = blockedHostname(hostname);
    if (byName) return callback(byName, "", 0);
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      for (const a of addresses) {
        const blocked = blockedAddress(a.address, hostname, policy);
        if (blocked) return callback(blocked, "", 0);
      }
      // net asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily), else for one.
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export const safeLookup: LookupFunction = createSafeLookup();
/** For URLs whose host came from request data: private and loopback answers refused whatever OUTBOUND_ALLOW_PRIVATE says. */
export const strictLookup: LookupFunction = createSafeLookup(dns.lookup as Resolver, "strict");

export function lookupFor(policy: PrivatePolicy): LookupFunction {
  return policy === "strict" ? strictLookup : safeLookup;
}

type Agents = { http: http.Agent; https: https.Agent };
const g = globalThis as unknown as { __polymockGuardedAgents?: Agents; __polymockStrictAgents?: Agents };

const agentsWith = (lookup: LookupFunction): Agents => ({
  http: new http.Agent({ keepAlive: true, lookup }),
  https: new https.Agent({ keepAlive: true, lookup }),
});

/**
 * Keep-alive agents whose every new socket goes through the guard's lookup.
 * Dedicated agents, not the global ones: a pooled socket opened by unguarded
 * code for the same host:port could otherwise be reused without the check; and
 * one pair per policy, so a socket a static URL opened to a private address is
 * never reused for a request-derived one.
 */
export function guardedAgent(protocol: string, policy: PrivatePolicy = "env"): http.Agent {
  const agents = policy === "strict" ? (g.__polymockStrictAgents ??= agentsWith(strictLookup)) : (g.__polymockGuardedAgents ??= agentsWith(safeLookup));
  return protocol === "https:" ? agents.https : agents.http;
}
