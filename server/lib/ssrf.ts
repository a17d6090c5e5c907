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
// a service on the developer's own machine is the main use of a mock proxy.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";

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

// ---------------------------------------------------------------- addresses

export type AddressClass = "metadata" | "private" | "public";

function ipv4ToInt(ip: string): number {
  const [a, b, c, d] = ip.split(".").map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

const v4 = (cidr: string): [number, number] => {
  const [base, bits] = cidr.split("/");
  const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
  return [(ipv4ToInt(base) & mask) >>> 0, mask];
};

// 169.254.0.0/16 is link-local, where AWS, Azure, GCP and Oracle serve instance
// metadata (169.254.169.254) and ECS task metadata (169.254.170.2); Alibaba uses 100.100.100.200.
const V4_METADATA = [v4("169.254.0.0/16"), v4("100.100.100.200/32")];
// 100.64.0.0/10 (carrier-grade NAT) is not public either: clusters and VPNs use it for internal services.
const V4_PRIVATE = [v4("0.0.0.0/8"), v4("10.0.0.0/8"), v4("127.0.0.0/8"), v4("172.16.0.0/12"), v4("192.168.0.0/16"), v4("100.64.0.0/10")];

function classifyV4(ip: string): AddressClass {
  const n = ipv4ToInt(ip);
  if (V4_METADATA.some(([base, mask]) => (n & mask) >>> 0 === base)) return "metadata";
  if (V4_PRIVATE.some(([base, mask]) => (n & mask) >>> 0 === base)) return "private";
  return "public";
}

/** Eight 16-bit groups, or null when the text is not an IPv6 address. Accepts "::", a zone (%eth0) and a dotted IPv4 tail. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, "");
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (isIP(s) !== 6) return null;
  // A dotted IPv4 tail (::ffff:1.2.3.4) is two groups written differently.
  const lastColon = s.lastIndexOf(":");
  const tail = s.slice(lastColon + 1);
  if (tail.includes(".")) {
    const n = ipv4ToInt(tail);
    s = `${s.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const gap = s.indexOf("::");
  if (gap < 0) return groups(s);
  const left = groups(s.slice(0, gap));
  const right = groups(s.slice(gap + 2));
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function embeddedV4(groups: number[]): string {
  const hi = groups[6];
  const lo = groups[7];
  return `${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`;
}

function classifyV6(groups: number[]): AddressClass {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  // IPv4-mapped (::ffff:a.b.c.d) reaches the IPv4 address through a dual-stack socket;
  // NAT64 (64:ff9b::a.b.c.d) and the deprecated IPv4-compatible form (::a.b.c.d) embed one too.
  if (zeros(0, 5) && groups[5] === 0xffff) return classifyV4(embeddedV4(groups));
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return classifyV4(embeddedV4(groups));
  if (zeros(0, 7) && groups[7] <= 1) return "private"; // :: (unspecified) and ::1 (loopback)
  if (zeros(0, 6)) return classifyV4(embeddedV4(groups));
  if ((groups[0] & 0xffc0) === 0xfe80) return "metadata"; // fe80::/10 link-local, like 169.254/16
  if (groups[0] === 0xfd00 && groups[1] === 0x0ec2 && zeros(2, 7) && groups[7] === 0x254) return "metadata"; // AWS IMDS over IPv6
  if ((groups[0] & 0xfe00) === 0xfc00) return "private"; // fc00::/7 unique local
  if ((groups[0] & 0xffc0) === 0xfec0) return "private"; // fec0::/10, deprecated site-local
  return "public";
}

/** How the policy sees an IP address; undefined when the text is not an IP address. */
export function classifyAddress(ip: string): AddressClass | undefined {
  if (isIP(ip) === 4) return classifyV4(ip);
  const groups = parseIPv6(ip);
  return groups ? classifyV6(groups) : undefined;
}

// ---------------------------------------------------------------- checks

const METADATA_HOSTNAMES = new Set(["metadata.google.internal", "metadata"]);

function blockedAddress(address: string, target: string): BlockedTargetError | undefined {
  const kind = classifyAddress(address);
  if (kind === "metadata") {
    return new BlockedTargetError(target, "metadata", `Outbound request to ${target} is blocked: ${address} is a cloud-metadata or link-local address, which mocks may never reach`);
  }
  if (kind === "private" && !privateTargetsAllowed()) {
    return new BlockedTargetError(target, "private", `Outbound request to ${target} is blocked: ${address} is a private or loopback address and OUTBOUND_ALLOW_PRIVATE=0`);
  }
  return undefined;
}

function blockedHostname(hostname: string): BlockedTargetError | undefined {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  if (METADATA_HOSTNAMES.has(name)) return new BlockedTargetError(hostname, "metadata", `Outbound request to ${hostname} is blocked: it is a cloud-metadata host name`);
  return undefined;
}

/**
 * Throws BlockedTargetError when the URL may not be requested. Checks what is
 * known before connecting; the addresses a host name resolves to are checked by
 * safeLookup, so every request must also use it (guardedAgent does).
 * WHATWG URL parsing has already turned decimal, hex and octal IPv4 forms
 * (http://2852039166/, http://0xa9fea9fe/) into dotted quads.
 */
export function assertAllowedTarget(url: URL): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BlockedTargetError(url.origin, "scheme", `Outbound request to ${url.protocol}//${url.host} is blocked: only http and https targets are allowed`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const byName = blockedHostname(host);
  if (byName) throw byName;
  if (classifyAddress(host) !== undefined) {
    const byAddress = blockedAddress(host, url.host);
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
export function createSafeLookup(resolve: Resolver = dns.lookup as Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const byName = blockedHostname(hostname);
    if (byName) return callback(byName, "", 0);
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      for (const a of addresses) {
        const blocked = blockedAddress(a.address, hostname);
        if (blocked) return callback(blocked, "", 0);
      }
      // net asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily), else for one.
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export const safeLookup: LookupFunction = createSafeLookup();

const g = globalThis as unknown as { __polymockGuardedAgents?: { http: http.Agent; https: https.Agent } };

/**
 * Keep-alive agents whose every new socket goes through safeLookup. Dedicated
 * agents, not the global ones: a pooled socket opened by unguarded code for the
 * same host:port could otherwise be reused without the check.
 */
export function guardedAgent(protocol: string): http.Agent {
  g.__polymockGuardedAgents ??= {
    http: new http.Agent({ keepAlive: true, lookup: safeLookup }),
    https: new https.Agent({ keepAlive: true, lookup: safeLookup }),
  };
  return protocol === "https:" ? g.__polymockGuardedAgents.https : g.__polymockGuardedAgents.http;
}
