import http from "node:http";
import type { AddressInfo } from "node:net";
import type dns from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { targetFromRequestData } from "@/server/contracts/outbound-target";
import { assertAllowedTarget, BlockedTargetError, classifyAddress, createSafeLookup, guardedAgent, lookupFor, outboundTargetProblem, parseIPv6, privatePolicyFor, safeLookup } from "./ssrf";

afterEach(() => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  delete process.env.OUTBOUND_ALLOW_PRIVATE_TEMPLATED;
});

describe("classifyAddress", () => {
  it.each([
    // cloud metadata and link-local: always refused
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["169.254.0.1", "metadata"],
    ["169.254.255.255", "metadata"],
    ["100.100.100.200", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["FD00:0EC2:0:0:0:0:0:254", "metadata"],
    ["fe80::1", "metadata"],
    ["fe80::1%eth0", "metadata"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", "metadata"],
    ["64:ff9b::169.254.169.254", "metadata"],
    ["::169.254.169.254", "metadata"],
    ["::ffff:100.100.100.200", "metadata"],
    // private, loopback, unspecified
    ["127.0.0.1", "private"],
    ["127.1.2.3", "private"],
    ["10.0.0.5", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["0.0.0.0", "private"],
    ["100.64.0.1", "private"],
    ["::1", "private"],
    ["::", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::253", "private"],
    ["::ffff:127.0.0.1", "private"],
    ["::ffff:7f00:1", "private"],
    ["::ffff:10.0.0.1", "private"],
    // public, including the neighbours of every range
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["172.15.255.255", "public"],
    ["172.32.0.1", "public"],
    ["169.253.255.255", "public"],
    ["169.255.0.1", "public"],
    ["100.100.100.201", "private"], // 100.64.0.0/10, next to the Alibaba metadata address
    ["100.128.0.1", "public"],
    ["11.0.0.1", "public"],
    ["192.169.0.1", "public"],
    ["2606:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
    ["fec0::1", "private"],
    // IPv4-translated (::ffff:0:a.b.c.d) and IPv4-compatible (::a.b.c.d)
    ["::ffff:0:127.0.0.1", "private"],
    ["::ffff:0:169.254.169.254", "metadata"],
    ["::ffff:0:8.8.8.8", "public"],
    ["::10.0.0.1", "private"],
    ["::8.8.8.8", "public"],
    // 6to4 (2002::/16): the IPv4 address in bits 16–48
    ["2002:7f00:1::", "private"],
    ["2002:7f00:0001:0:0:0:0:1", "private"],
    ["2002:a9fe:a9fe::1", "metadata"],
    ["2002:0a00:0001::", "private"],
    ["2002:c0a8:0101::", "private"],
    ["2002:0808:0808::1", "public"],
    // NAT64 well-known prefix 64:ff9b::/96
    ["64:ff9b::127.0.0.1", "private"],
    ["64:ff9b::7f00:1", "private"],
    ["64:ff9b::10.1.2.3", "private"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["64:ff9b::8.8.8.8", "public"],
    // NAT64 local-use prefix 64:ff9b:1::/48 (RFC 8215), IPv4 where RFC 6052 puts it for /48 and /96
    ["64:ff9b:1:7f00:0:100::", "private"], // /48: 127.0 in bits 48–63, .0.1 in bits 72–87
    ["64:ff9b:1:a9fe:a9:fe00::", "metadata"],
    ["64:ff9b:1::127.0.0.1", "private"], // /96 form inside the /48
    ["64:ff9b:1::169.254.169.254", "metadata"],
    ["64:ff9b:1:808:8:800::", "public"],
    ["64:ff9b:1::8.8.8.8", "public"],
    ["64:ff9b:1::", "private"],
    // Teredo (2001::/32): client address inverted in the last 32 bits
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "private"], // client 127.0.0.1
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "public"], // client 8.8.8.8
  ])("%s is %s", (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });

  it("is undefined for text that is not an address", () => {
    expect(classifyAddress("example.com")).toBeUndefined();
    expect(classifyAddress("1.2.3")).toBeUndefined();
  });

  it("parses IPv6 forms into eight groups", () => {
    expect(parseIPv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("[::1]")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseIPv6("1.2.3.4")).toBeNull();
  });
});

describe("assertAllowedTarget", () => {
  const check = (url: string) => {
    try {
      assertAllowedTarget(new URL(url));
      return "allowed";
    } catch (err) {
      if (err instanceof BlockedTargetError) return err.reason;
      throw err;
    }
  };

  it.each([
    ["http://example.com/x", "allowed"],
    ["https://8.8.8.8/", "allowed"],
    ["http://localhost:8080/", "allowed"], // resolved at connect time by safeLookup
    ["http://127.0.0.1:3000/", "allowed"],
    ["http://[::1]:3000/", "allowed"],
    ["http://169.254.169.254/latest/meta-data/", "metadata"],
    ["http://2852039166/", "metadata"], // decimal form of 169.254.169.254
    ["http://0xa9fea9fe/", "metadata"], // hex form
    ["http://0251.0376.0251.0376/", "metadata"], // octal form
    ["http://169.254.43518/", "metadata"], // two-part form
    ["http://[::ffff:169.254.169.254]/", "metadata"],
    ["http://[::ffff:a9fe:a9fe]/", "metadata"],
    ["http://[fd00:ec2::254]/", "metadata"],
    ["http://[fe80::1]/", "metadata"],
    ["http://100.100.100.200/", "metadata"],
    ["http://metadata.google.internal/computeMetadata/v1/", "metadata"],
    ["http://METADATA.Google.Internal./", "metadata"],
    ["http://metadata/", "metadata"],
    ["ftp://example.com/", "scheme"],
    ["file:///etc/passwd", "scheme"],
    ["gopher://127.0.0.1:6379/", "scheme"],
  ])("%s → %s", (url, expected) => {
    expect(check(url)).toBe(expected);
  });

  it("private and loopback targets are refused when OUTBOUND_ALLOW_PRIVATE=0", () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    for (const url of ["http://127.0.0.1/", "http://10.1.2.3/", "http://[::1]/", "http://0.0.0.0/", "http://2130706433/", "http://[::ffff:127.0.0.1]/", "http://192.168.0.10/"]) {
      expect(check(url), url).toBe("private");
    }
    expect(check("http://8.8.8.8/")).toBe("allowed");
    expect(check("http://169.254.169.254/")).toBe("metadata");
    process.env.OUTBOUND_ALLOW_PRIVATE = "1";
    expect(check("http://127.0.0.1/")).toBe("allowed");
  });

  it("says why in the message", () => {
    expect(() => assertAllowedTarget(new URL("http://169.254.169.254/"))).toThrow(/blocked: 169\.254\.169\.254 is a cloud-metadata or link-local address/);
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    expect(() => assertAllowedTarget(new URL("http://127.0.0.1/"))).toThrow(/private or loopback address and OUTBOUND_ALLOW_PRIVATE=0/);
  });
});

describe("outboundTargetProblem: refused when a mock is saved", () => {
  it.each([
    // allowed: public, private and loopback (a call-time policy), templated hosts (judged at call time)
    ["http://example.com/hook", undefined],
    ["https://8.8.8.8/", undefined],
    ["http://127.0.0.1:3000/hook", undefined],
    ["http://localhost/x", undefined],
    ["$.req.cb", undefined],
    ["{{$.req.cb}}", undefined],
    ["http://$.req.host/x", undefined],
    ["http://hooks.example/$.pathParam.id?src={{$.queryParams.src}}", undefined],
    // metadata and link-local, in every spelling URL parsing accepts
    ["http://169.254.169.254/latest/meta-data/", /cloud-metadata or link-local/],
    ["http://2852039166/", /cloud-metadata or link-local/],
    ["http://0xa9fea9fe/", /cloud-metadata or link-local/],
    ["http://[::ffff:169.254.169.254]/", /cloud-metadata or link-local/],
    ["http://[fe80::1]/", /cloud-metadata or link-local/],
    ["http://[fd00:ec2::254]/", /cloud-metadata or link-local/],
    ["http://[2002:a9fe:a9fe::]/", /cloud-metadata or link-local/],
    ["http://[64:ff9b::a9fe:a9fe]/", /cloud-metadata or link-local/],
    ["http://100.100.100.200/", /cloud-metadata or link-local/],
    ["http://metadata.google.internal/computeMetadata/v1/", /cloud-metadata host name/],
    ["http://METADATA./", /cloud-metadata host name/],
    // a literal metadata origin with placeholders after it
    ["http://169.254.169.254/$.req.path", /cloud-metadata or link-local/],
    ["http://metadata.google.internal/{{$.req.p}}", /cloud-metadata host name/],
    // schemes and shapes
    ["ftp://example.com/", /only http and https/],
    ["gopher://$.req.host/", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
    ["/relative/path", /not an absolute http\(s\) URL/],
  ])("%s → %s", (url, expected) => {
    const problem = outboundTargetProblem(url);
    if (expected === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(expected);
  });
});

describe("URLs whose host comes from request data", () => {
  it.each([
    ["$.req.cb", true],
    ["{{ $.req.cb }}", true],
    ["http://$.req.host/x", true],
    ["http://127.0.0.1:$.req.port/x", true],
    ["https://{{$.reqHeader.x-host[0]}}/", true],
    ["http://127.0.0.1:3000/hook/$.pathParam.id", false],
    ["http://hooks.example/x?cb={{$.req.cb}}", false],
    ["http://hooks.example/x", false],
  ])("%s → %s", (url, expected) => {
    expect(targetFromRequestData(url)).toBe(expected);
  });

  const check = (url: string, namespace: string, fromRequestData: boolean) => {
    try {
      assertAllowedTarget(new URL(url), privatePolicyFor({ fromRequestData, namespace }));
      return "allowed";
    } catch (err) {
      if (err instanceof BlockedTargetError) return err.reason;
      throw err;
    }
  };

  // [url, host from request data, OUTBOUND_ALLOW_PRIVATE, OUTBOUND_ALLOW_PRIVATE_TEMPLATED, outcome in namespace "team"]
  it.each([
    ["http://127.0.0.1/", true, undefined, undefined, "private"],
    ["http://[::1]/", true, undefined, undefined, "private"],
    ["http://10.0.0.7/", true, undefined, undefined, "private"],
    ["http://[64:ff9b::7f00:1]/", true, undefined, undefined, "private"],
    ["http://[2002:7f00:1::]/", true, undefined, undefined, "private"],
    ["http://8.8.8.8/", true, undefined, undefined, "allowed"],
    ["http://127.0.0.1/", true, undefined, "team", "allowed"],
    ["http://127.0.0.1/", true, undefined, "other,team", "allowed"],
    ["http://127.0.0.1/", true, undefined, "*", "allowed"],
    ["http://127.0.0.1/", true, undefined, "other", "private"],
    ["http://127.0.0.1/", true, "0", "team", "private"], // the instance-wide switch still wins
    ["http://169.254.169.254/", true, undefined, "*", "metadata"],
    ["http://127.0.0.1/", false, undefined, undefined, "allowed"], // static: OUTBOUND_ALLOW_PRIVATE governs
    ["http://127.0.0.1/", false, "0", undefined, "private"],
  ])("%s (from request data: %s, OUTBOUND_ALLOW_PRIVATE=%s, OUTBOUND_ALLOW_PRIVATE_TEMPLATED=%s) → %s", (url, fromRequestData, allowPrivate, templated, expected) => {
    if (allowPrivate !== undefined) process.env.OUTBOUND_ALLOW_PRIVATE = allowPrivate;
    if (templated !== undefined) process.env.OUTBOUND_ALLOW_PRIVATE_TEMPLATED = templated;
    expect(check(url, "team", fromRequestData)).toBe(expected);
  });

  it("the strict lookup refuses a name resolving to loopback even when private targets are allowed", async () => {
    const err = await new Promise<Error | null>((resolve) => lookupFor("strict")("localhost", { all: true }, (e) => resolve(e)));
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect((err as BlockedTargetError).reason).toBe("private");
    const ok = await new Promise<Error | null>((resolve) => lookupFor("env")("localhost", { all: true }, (e) => resolve(e)));
    expect(ok).toBeNull();
  });
});

describe("safeLookup", () => {
  const fakeDns = (answers: Record<string, string[]>) => {
    const asked: string[] = [];
    const resolve = (host: string, _opts: dns.LookupAllOptions, cb: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => {
      asked.push(host);
      cb(null, (answers[host] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
    };
    return { asked, lookup: createSafeLookup(resolve) };
  };
  const run = (lookup: ReturnType<typeof createSafeLookup>, host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown; family?: number }>((resolve) => lookup(host, { all }, (err, address, family) => resolve({ err, address, family })));

  const answers = { "api.example": ["93.184.216.34", "2606:4700::1111"], "rebind.example": ["93.184.216.34", "169.254.169.254"], "mapped.example": ["::ffff:169.254.169.254"], "dev.example": ["127.0.0.1"] };

  it("passes public answers through, one address or all", async () => {
    const { lookup } = fakeDns(answers);
    expect(await run(lookup, "api.example", false)).toEqual({ err: null, address: "93.184.216.34", family: 4 });
    const all = await run(lookup, "api.example", true);
    expect(all.err).toBeNull();
    expect(all.address).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:4700::1111", family: 6 },
    ]);
  });

  it("refuses a name when ANY of its addresses is forbidden", async () => {
    const { lookup } = fakeDns(answers);
    for (const all of [false, true]) {
      const r = await run(lookup, "rebind.example", all);
      expect(r.err).toBeInstanceOf(BlockedTargetError);
      expect((r.err as BlockedTargetError).reason).toBe("metadata");
    }
    expect((await run(lookup, "mapped.example", false)).err).toBeInstanceOf(BlockedTargetError);
  });

  it("refuses metadata host names without resolving them", async () => {
    const { lookup, asked } = fakeDns(answers);
    expect((await run(lookup, "metadata.google.internal", false)).err).toBeInstanceOf(BlockedTargetError);
    expect(asked).toEqual([]);
  });

  it("private answers follow OUTBOUND_ALLOW_PRIVATE", async () => {
    const { lookup } = fakeDns(answers);
    expect((await run(lookup, "dev.example", false)).err).toBeNull();
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    expect(((await run(lookup, "dev.example", false)).err as BlockedTargetError).reason).toBe("private");
  });

  it("reports an empty answer as not found", async () => {
    const { lookup } = fakeDns(answers);
    expect((await run(lookup, "nowhere.example", false)).err).toMatchObject({ code: "ENOTFOUND" });
  });
});

describe("guardedAgent with node:http", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end("hi"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const get = (host: string) =>
    new Promise<string>((resolve, reject) => {
      const req = http.get({ host, port, path: "/", agent: guardedAgent("http:"), lookup: safeLookup, headers: { connection: "close" } }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
    });

  it("connects to a name that resolves to loopback by default, and refuses it at connect time with OUTBOUND_ALLOW_PRIVATE=0", async () => {
    expect(await get("localhost")).toBe("hi");
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const err = await get("localhost").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect((err as BlockedTargetError).reason).toBe("private");
  });
});
