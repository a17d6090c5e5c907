// Pure knowledge of which outbound addresses a mock may reach: IP address
// classification (metadata / private / public) and the save-time check of a
// proxy target or webhook URL. Pure and browser-safe (no node:*), so the zod
// contracts can refuse a metadata target when a mock is saved; the connect-time
// guard in server/lib/ssrf.ts uses the same classification.
// Policy: docs/decisions.md, "Proxy and webhooks".

export type AddressClass = "metadata" | "private" | "public";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

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

function classifyV4Int(n: number): AddressClass {
  if (V4_METADATA.some(([base, mask]) => (n & mask) >>> 0 === base)) return "metadata";
  if (V4_PRIVATE.some(([base, mask]) => (n & mask) >>> 0 === base)) return "private";
  return "public";
}

/** Eight 16-bit groups, or null when the text is not an IPv6 address. Accepts brackets, "::", a zone (%eth0) and a dotted IPv4 tail. */
export function parseIPv6(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, "");
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(":")) return null;
  let canonical: string;
  try {
    // WHATWG URL parsing validates the address and rewrites a dotted IPv4 tail as two hex groups.
    canonical = new URL(`http://[${s}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const groups = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const gap = canonical.indexOf("::");
  if (gap < 0) return groups(canonical);
  const left = groups(canonical.slice(0, gap));
  const right = groups(canonical.slice(gap + 2));
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const SEVERITY: Record<AddressClass, number> = { public: 0, private: 1, metadata: 2 };
const worst = (classes: AddressClass[]) => classes.reduce((a, b) => (SEVERITY[b] > SEVERITY[a] ? b : a), "public" as AddressClass);

/** The IPv4 address in four bytes of the 16, as an unsigned integer. */
const v4At = (bytes: number[], at: number[]) => ((bytes[at[0]] << 24) | (bytes[at[1]] << 16) | (bytes[at[2]] << 8) | bytes[at[3]]) >>> 0;

// RFC 6052 §2.2: where a NAT64 prefix of each length puts the IPv4 address.
// Byte 8 (bits 64–71) is always zero; a /48 prefix is the first of the local-use range's lengths.
const RFC6052_POSITIONS = [
  [4, 5, 6, 7], // /32
  [5, 6, 7, 9], // /40
  [6, 7, 9, 10], // /48
  [7, 9, 10, 11], // /56
  [9, 10, 11, 12], // /64
  [12, 13, 14, 15], // /96
];

function classifyV6(groups: number[]): AddressClass {
  const bytes = groups.flatMap((g) => [g >>> 8, g & 0xff]);
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const last32 = v4At(bytes, [12, 13, 14, 15]);
  // Forms that reach an IPv4 address are judged by it: IPv4-mapped (::ffff:a.b.c.d, through a
  // dual-stack socket), IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d).
  if (zeros(0, 5) && groups[5] === 0xffff) return classifyV4Int(last32);
  if (zeros(0, 4) && groups[4] === 0xffff && groups[5] === 0) return classifyV4Int(last32);
  if (zeros(0, 7) && groups[7] <= 1) return "private"; // :: (unspecified) and ::1 (loopback)
  if (zeros(0, 6)) return classifyV4Int(last32);
  // NAT64: 64:ff9b::/96 (well-known) and 64:ff9b:1::/48 (local use, RFC 8215). A local-use
  // gateway's prefix length (/48…/96) is not visible in the address, so the IPv4 address at
  // every RFC 6052 position is judged and the worst wins. Positions reading 0.0.0.0/8 are the
  // zero padding of another length (no gateway translates to "this network"), so they are
  // skipped; an address with nothing else in it is refused as private.
  if (groups[0] === 0x64 && groups[1] === 0xff9b) {
    if (zeros(2, 6)) return classifyV4Int(last32);
    const positions = groups[2] === 1 ? RFC6052_POSITIONS.slice(2) : RFC6052_POSITIONS;
    const candidates = positions.map((at) => v4At(bytes, at)).filter((n) => n >>> 24 !== 0);
    return candidates.length ? worst(candidates.map(classifyV4Int)) : "private";
  }
  // 6to4 (2002::/16): the relay forwards to the IPv4 address in bits 16–48.
  if (groups[0] === 0x2002) return classifyV4Int(v4At(bytes, [2, 3, 4, 5]));
  // Teredo (2001::/32): the client's IPv4 address is the last 32 bits inverted.
  if (groups[0] === 0x2001 && groups[1] === 0) return worst([classifyV4Int(~last32 >>> 0), classifyV4Int(v4At(bytes, [4, 5, 6, 7]))]);
  if ((groups[0] & 0xffc0) === 0xfe80) return "metadata"; // fe80::/10 link-local, like 169.254/16
  if (groups[0] === 0xfd00 && groups[1] === 0x0ec2 && zeros(2, 7) && groups[7] === 0x254) return "metadata"; // AWS IMDS over IPv6
  if ((groups[0] & 0xfe00) === 0xfc00) return "private"; // fc00::/7 unique local
  if ((groups[0] & 0xffc0) === 0xfec0) return "private"; // fec0::/10, deprecated site-local
  return "public";
}

/** How the policy sees an IP address; undefined when the text is not an IP address. */
export function classifyAddress(ip: string): AddressClass | undefined {
  if (IPV4.test(ip)) return classifyV4Int(ipv4ToInt(ip));
  const groups = parseIPv6(ip);
  return groups ? classifyV6(groups) : undefined;
}

const METADATA_HOSTNAMES = new Set(["metadata.google.internal", "metadata"]);

export function isMetadataHostname(hostname: string): boolean {
  return METADATA_HOSTNAMES.has(hostname.toLowerCase().replace(/\.+$/, ""));
}

/** Where a template placeholder starts ($.req…, {{ … }}); -1 when the text has none. */
function firstPlaceholder(text: string): number {
  const at = [text.indexOf("$."), text.indexOf("{{")].filter((i) => i >= 0);
  return at.length ? Math.min(...at) : -1;
}

/**
 * Why a proxy target or webhook URL may not be saved, or undefined when it may.
 * Refused: a scheme other than http(s), and cloud-metadata or link-local hosts
 * (names, and IP literals in every spelling URL parsing accepts). A templated
 * URL is judged by its literal origin when the placeholders come after it
 * (`http://169.254.169.254/$.req.x`); a templated host is left to the
 * connect-time guard. Private and loopback targets are a call-time policy,
 * never a save-time refusal.
 */
export function outboundTargetProblem(text: string): string | undefined {
  const cut = firstPlaceholder(text);
  if (cut < 0) return staticUrlProblem(text);
  const literal = text.slice(0, cut);
  const origin = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#]*)[/?#]/i.exec(literal);
  if (!origin) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(literal);
    if (scheme && !/^https?$/i.test(scheme[1]) && scheme[0].length < literal.length) return `only http and https targets are allowed, not ${scheme[1]}:`;
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(`${origin[1]}//${origin[2]}/`);
  } catch {
    return undefined; // a placeholder may still complete it; the call-time check decides
  }
  return urlProblem(url);
}

function staticUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "not an absolute http(s) URL";
  }
  return urlProblem(url);
}

function urlProblem(url: URL): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `only http and https targets are allowed, not ${url.protocol}`;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isMetadataHostname(host)) return `${host} is a cloud-metadata host name, which mocks may never reach`;
  if (classifyAddress(host) === "metadata") return `${host} is a cloud-metadata or link-local address, which mocks may never reach`;
  return undefined;
}

/**
 * True when a placeholder can decide where the request goes: one appears
 * before the end of the URL's origin (`$.req.cb`, `http://$.req.host/x`).
 * Placeholders only in the path or query leave the target the editor wrote.
 */
export function targetFromRequestData(text: string): boolean {
  const cut = firstPlaceholder(text);
  if (cut < 0) return false;
  return !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*[/?#]/i.test(text.slice(0, cut));
}

/**
 * Why a broker URL (a rabbitmq webhook's `amqp://…`) may not be saved: another
 * scheme, or a cloud-metadata or link-local host. Private hosts are allowed, as
 * for static webhook URLs.
 */
export function brokerUrlProblem(text: string, schemes: string[]): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `not an absolute URL (${schemes.map((s) => `${s}//`).join(" or ")})`;
  }
  if (!schemes.includes(url.protocol)) return `only ${schemes.map((s) => `${s}//`).join(" and ")} URLs are allowed, not ${url.protocol}`;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isMetadataHostname(host)) return `${host} is a cloud-metadata host name, which mocks may never reach`;
  if (classifyAddress(host) === "metadata") return `${host} is a cloud-metadata or link-local address, which mocks may never reach`;
  return undefined;
}
