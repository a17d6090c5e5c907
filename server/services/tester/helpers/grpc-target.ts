// Where a gRPC helper connects: the caller's host:port under the outbound
// policy. gRPC is not HTTP/1, so the guarded agents cannot carry it; instead
// the name is resolved here through the policy's own lookup (every address
// checked, as safeLookup does for HTTP) and the channel connects to the
// checked address, with the original name kept as the authority and the TLS
// server name, so a DNS answer that changes later cannot redirect it.
import net from "node:net";
import * as grpc from "@grpc/grpc-js";
import { refuse } from "@/server/lib/fetch-document";
import { assertAllowedTarget, BlockedTargetError, safeLookup } from "@/server/lib/ssrf";
import { external } from "./outbound";

export interface GrpcTargetInput {
  target: string;
  tls: boolean;
  verifyTls: boolean;
  metadata: Record<string, string>;
}

function split(target: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(target);
  const port = Number(m?.[3]);
  if (!m || port < 1 || port > 65535) throw refuse("target", "give host:port (a port from 1 to 65535)");
  return { host: m[1] ?? m[2], port };
}

function resolve(host: string): Promise<string> {
  if (net.isIP(host)) return Promise.resolve(host);
  return new Promise((ok, fail) =>
    safeLookup(host, { all: false }, (err, address) => {
      if (err) fail(err);
      else ok(address as string);
    }),
  );
}

/** A grpc-js client for the checked target; 400 naming `target` when the policy refuses it. */
export async function openGrpcClient(input: GrpcTargetInput): Promise<grpc.Client> {
  const { host, port } = split(input.target);
  let address: string;
  try {
    assertAllowedTarget(new URL(`http://${net.isIPv6(host) ? `[${host}]` : host}:${port}/`));
    address = await resolve(host);
  } catch (err) {
    if (err instanceof BlockedTargetError) throw refuse("target", err.message);
    throw external(`cannot resolve ${host}: ${(err as Error).message}`);
  }
  const authority = `${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
  const options: grpc.ChannelOptions = { "grpc.default_authority": authority };
  let credentials = grpc.credentials.createInsecure();
  if (input.tls) {
    if (!net.isIP(host)) options["grpc.ssl_target_name_override"] = host;
    credentials = grpc.credentials.createSsl(null, null, null, input.verifyTls ? undefined : { checkServerIdentity: () => undefined, rejectUnauthorized: false });
  }
  return new grpc.Client(`${net.isIPv6(address) ? `[${address}]` : address}:${port}`, credentials, options);
}

export function metadataOf(values: Record<string, string>): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [k, v] of Object.entries(values)) {
    const key = k.toLowerCase();
    if (key.endsWith("-bin")) md.add(key, Buffer.from(v, "base64"));
    else md.add(key, v);
  }
  return md;
}

/** Metadata as JSON: text values as they are, binary ones (-bin) as base64, repeated ones joined with ", ". */
export function metadataJson(md: grpc.Metadata | undefined): Record<string, string> {
  if (!md) return {};
  const out: Record<string, string> = {};
  for (const [k, values] of Object.entries(md.toJSON())) out[k] = (values as (string | Buffer)[]).map((v) => (Buffer.isBuffer(v) ? v.toString("base64") : v)).join(", ");
  return out;
}
