// Keep-alive connections for one run: a collection run of 1,000 requests to
// the same API opens a handful of sockets rather than 1,000, and the timings
// of a reused socket show 0 for DNS, connect and TLS, as Postman's do. Every
// new socket resolves its host through the outbound guard's lookup
// (server/lib/ssrf.ts), so a pooled connection was checked when it was opened;
// agents are split by policy, so a socket a permissive request opened to a
// private address is never handed to a strict one, and by TLS verification, so
// a connection accepted without verifying a certificate is never reused by a
// request that asked for verification.
import http from "node:http";
import https from "node:https";
import { lookupFor, type PrivatePolicy } from "@/server/lib/ssrf";

export class ConnectionPool {
  private readonly agents = new Map<string, http.Agent>();
  private closed = false;

  constructor(private readonly opts: { keepAlive?: boolean; maxSocketsPerHost?: number } = {}) {}

  agentFor(protocol: string, verifyTls: boolean, policy: PrivatePolicy): http.Agent {
    if (this.closed) throw new Error("this connection pool is closed");
    const key = `${protocol}|${verifyTls}|${policy}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const common = {
        keepAlive: this.opts.keepAlive ?? true,
        maxSockets: this.opts.maxSocketsPerHost ?? Infinity,
        // The most recently used socket is the least likely to have been closed by the server's idle timeout.
        scheduling: "lifo" as const,
        lookup: lookupFor(policy),
      };
      agent = protocol === "https:" ? new https.Agent({ ...common, rejectUnauthorized: verifyTls }) : new http.Agent(common);
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Closes every socket, idle or in use: call it when the run is over. */
  close(): void {
    this.closed = true;
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
