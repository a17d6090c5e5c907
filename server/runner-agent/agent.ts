// A runner agent (`polymock runner`): registers with the server under its
// integration token, sends a heartbeat every few seconds, and claims parts
// of queued load runs while it has free VUs, running several at once when
// its capacity allows. Pure of the database: everything goes through the
// server's /api/v1/runners endpoints (./client.ts). Stopping it ends its
// running parts "failed" with what they measured, then says it is offline.
import os from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import type { ClaimedPart } from "@/server/contracts/runner-endpoints";
import { RunnerClient, ServerAnswerError, type Registered } from "./client";
import { runPart } from "./run-part";

export interface AgentOptions {
  server: string;
  token: string;
  name: string;
  capacityVus: number;
  labels?: string[];
  hostname?: string;
  version?: string;
  /** Long-poll length of a claim (the server caps it). */
  claimWaitSeconds?: number;
  /** A cumulative snapshot goes with every n-th second's report. */
  snapshotEverySeconds?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

interface Running {
  part: ClaimedPart;
  done: Promise<void>;
}

const RETRY_MS = 2000;

export class RunnerAgent {
  private readonly client: RunnerClient;
  private readonly log: (message: string, fields?: Record<string, unknown>) => void;
  private registered: Registered | null = null;
  private readonly running = new Map<string, Running>();
  private readonly shutdown = new AbortController();
  /** Resolves when the agent starts stopping. */
  private readonly stopping: Promise<void>;
  private heartbeat: NodeJS.Timeout | null = null;
  private loop: Promise<void> = Promise.resolve();
  /** The registration in flight: a stop that comes meanwhile waits for it, so a runner the server just took is reported offline. */
  private starting: Promise<boolean> = Promise.resolve(false);
  private fatal: Error | null = null;

  constructor(private readonly opts: AgentOptions) {
    this.client = new RunnerClient(opts.server, opts.token);
    this.log = opts.log ?? ((m) => process.stdout.write(`${new Date().toISOString()} ${m}\n`));
    this.stopping = new Promise((resolve) => this.shutdown.signal.addEventListener("abort", () => resolve(), { once: true }));
  }

  get id(): string | null {
    return this.registered?.id ?? null;
  }

  get activeVus(): number {
    let n = 0;
    for (const r of this.running.values()) n += r.part.vus;
    return n;
  }

  /** Resolves once registered; the agent then works until stop() or a fatal answer (see `finished`). */
  async start(): Promise<void> {
    this.starting = this.register();
    if (!(await this.starting) || this.shutdown.signal.aborted) return;
    this.heartbeat = setInterval(() => void this.beat(), this.registered!.heartbeatIntervalMs);
    this.loop = this.claimLoop();
  }

  /** Resolves when the agent has stopped; rejects when it stopped on its own (token revoked, expired). */
  async finished(): Promise<void> {
    await this.loop;
    if (this.fatal) throw this.fatal;
  }

  /** False when the agent was stopped before the server took it. */
  private async register(): Promise<boolean> {
    const body = { name: this.opts.name, capacityVus: this.opts.capacityVus, labels: this.opts.labels ?? [], hostname: this.opts.hostname ?? os.hostname(), version: this.opts.version ?? "" };
    for (;;) {
      if (this.shutdown.signal.aborted) return false;
      try {
        this.registered = await this.client.register(body);
        this.log(`registered as runner '${this.registered.name}' (${this.registered.id}) on ${this.client.server}, ${this.opts.capacityVus} VUs, serving ${this.registered.namespace ? `namespace '${this.registered.namespace}'` : "every namespace of the token"}`);
        return true;
      } catch (e) {
        const status = (e as ServerAnswerError).status;
        // 409: an agent of this name was online a moment ago (this one restarted); it goes offline within 15 s.
        if (this.shutdown.signal.aborted || (status !== 0 && status !== 409 && status < 500)) throw e;
        this.log(`registration: ${(e as Error).message}; retrying`);
        await sleep(status === 409 ? 5000 : RETRY_MS, undefined, { signal: this.shutdown.signal }).catch(() => {});
      }
    }
  }

  private async beat(status?: "offline"): Promise<void> {
    if (!this.registered) return;
    try {
      await this.client.heartbeat(this.registered.id, { activeVus: this.activeVus, capacityVus: this.opts.capacityVus, ...(status ? { status } : {}) });
    } catch (e) {
      this.onCallError(e, "heartbeat");
    }
  }

  /** 401: the token was revoked or expired; the agent cannot go on. Anything else is retried by the caller. */
  private onCallError(e: unknown, what: string) {
    if (e instanceof ServerAnswerError && e.status === 401 && !this.shutdown.signal.aborted) {
      this.fatal = new Error(`the server refused the token (${e.message}); stopping`);
      this.log(this.fatal.message);
      void this.stop();
      return;
    }
    if (!this.shutdown.signal.aborted) this.log(`${what}: ${(e as Error).message}`);
  }

  private async claimLoop(): Promise<void> {
    const wait = Math.min(this.opts.claimWaitSeconds ?? 20, this.registered!.claimWaitMaxSeconds);
    while (!this.shutdown.signal.aborted) {
      const free = this.opts.capacityVus - this.activeVus;
      if (free <= 0) {
        // Full: the next claim waits for a part to end.
        await Promise.race([...[...this.running.values()].map((r) => r.done), this.stopping]);
        continue;
      }
      try {
        const { part } = await this.client.claim(this.registered!.id, { waitSeconds: wait, freeVus: free }, this.shutdown.signal);
        if (part) this.startPart(part);
      } catch (e) {
        if (this.shutdown.signal.aborted) break;
        if (e instanceof ServerAnswerError && e.status === 404) {
          // The server no longer knows this runner (deleted while away): register again.
          await this.register().catch((err) => this.onCallError(err, "registration"));
          continue;
        }
        this.onCallError(e, "claim");
        await sleep(RETRY_MS, undefined, { signal: this.shutdown.signal }).catch(() => {});
      }
    }
  }

  private startPart(part: ClaimedPart) {
    this.log(`took part ${part.segment.index + 1}/${part.segment.count} of run ${part.resultId} (${part.vus} VUs, namespace '${part.namespace}')`);
    const done = runPart({ client: this.client, runnerId: this.registered!.id, runnerName: this.registered!.name, shutdown: this.shutdown.signal, snapshotEverySeconds: this.opts.snapshotEverySeconds ?? 2, log: this.log }, part)
      .catch((e) => this.log(`part ${part.partId} failed: ${(e as Error).message}`))
      .finally(() => this.running.delete(part.partId));
    this.running.set(part.partId, { part, done });
  }

  /** Takes no more parts, ends the running ones (their final reports are sent), and says it is offline. */
  async stop(): Promise<void> {
    if (this.shutdown.signal.aborted) return this.loop;
    this.shutdown.abort();
    await this.starting.catch(() => false);
    if (this.heartbeat) clearInterval(this.heartbeat);
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    if (!this.fatal) await this.beat("offline");
    await this.loop;
    this.log("runner stopped");
  }
}
