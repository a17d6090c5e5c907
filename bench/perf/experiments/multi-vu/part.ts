// The host's side of the experiment: one isolate holding a hub context and
// `vus` VU contexts, its HTTP served by the engine's real client
// (LoadHttpClient, undici) and recorded into a MetricRegistry as VuGroup
// records it, or answered at once by a fake (the crossing cost alone).
// Answers that arrive in one turn of the event loop go back in one call.
import { writeFileSync } from "node:fs";
import ivm from "isolated-vm";
import { MetricRegistry, type Tags } from "../../../../server/perf/metrics";
import { LoadHttpClient, type SendMeter } from "../../../../server/perf/k6/http-driver";
import type { HostRequest, HostResponse } from "../../../../server/perf/k6/isolate/http";
import { LeanClient } from "./lean-client";

export interface PartConfig {
  vus: number;
  firstVu: number;
  url: string;
  /**
   * batched: one crossing per batch each way; direct: an async host call per
   * request; host: no isolate at all, `vus` loops on the host (the floor any
   * isolate design adds to); minimal: batched with the least the isolate can
   * do (URL out, status back, no Response object, no iteration results).
   */
  mode: "batched" | "direct" | "host" | "minimal";
  /** real: the engine's LoadHttpClient (undici); lean: lean-client.ts; fake: an instant answer. */
  http: "real" | "lean" | "fake";
  hubCode: string;
  vuCode: string;
}

export interface PartCounts {
  requests: number;
  iterations: number;
  /** Messages from the isolate (batches) and calls into it (deliveries). */
  posts: number;
  deliveries: number;
}

const NO_TAGS: Tags = Object.freeze({}) as Tags;

function fakeResponse(req: HostRequest): HostResponse {
  return {
    status: 200,
    statusText: "200",
    url: req.url,
    proto: "HTTP/1.1",
    headers: { "Content-Type": "application/json", "Content-Length": "11", Date: "Thu, 01 Jan 2026 00:00:00 GMT", Connection: "keep-alive", "Keep-Alive": "timeout=5" },
    body: '{"ok":true}',
    timings: { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0.05, receiving: 0.01, duration: 0.06 },
    error: "",
    errorCode: 0,
    remoteIp: "127.0.0.1",
    remotePort: 80,
  };
}

export class IsolatePart {
  readonly counts: PartCounts = { requests: 0, iterations: 0, posts: 0, deliveries: 0 };
  readonly registry = new MetricRegistry();
  readonly #client = new LoadHttpClient();
  readonly #lean: LeanClient;
  readonly #stop = new AbortController();
  #isolate: ivm.Isolate | undefined;
  #deliver: ivm.Reference | undefined;
  #stopRef: ivm.Reference | undefined;
  #contexts: ivm.Context[] = [];
  #outIds: number[] = [];
  /** The answers to deliver (in minimal mode their statuses). */
  #out: HostResponse[] = [];
  #deliveryQueued = false;
  #ended: () => void = () => {};
  readonly ended = new Promise<void>((resolve) => (this.#ended = resolve));

  constructor(readonly config: PartConfig) {
    this.#lean = new LeanClient(config.url);
  }

  async prepare(): Promise<void> {
    const c = this.config;
    if (c.mode === "host") return;
    const isolate = new ivm.Isolate({ memoryLimit: 64 + 8 * c.vus });
    this.#isolate = isolate;
    const hub = await isolate.createContext();
    await hub.global.set("__post", new ivm.Reference((message: string) => this.#onPost(message)));
    await hub.global.set("__direct", c.mode === "direct" ? new ivm.Reference((json: string) => this.#direct(json)) : undefined);
    await hub.eval(c.hubCode);
    this.#deliver = await hub.global.get("__deliver", { reference: true });
    this.#stopRef = await hub.global.get("__stop", { reference: true });
    const hubObject = await hub.global.get("hub", { reference: true });
    const vuScript = await isolate.compileScript(c.vuCode, { filename: "vu-runtime.js" });
    for (let i = 0; i < c.vus; i++) {
      const ctx = await isolate.createContext();
      await ctx.global.set("__hub", hubObject.derefInto());
      await ctx.global.set("__VU", c.firstVu + i);
      await ctx.global.set("__ENV", new ivm.ExternalCopy({ URL: c.url }).copyInto());
      await ctx.global.set("__minimal", c.mode === "minimal");
      await vuScript.run(ctx);
      this.#contexts.push(ctx);
    }
  }

  /** Starts every VU's loop; `ended` resolves when the last one has stopped after stop(). */
  start(): void {
    // ISOLATE_PROFILE=dir: V8's CPU profile of the isolate (its JavaScript, on whichever thread ran it), one file per thread.
    if (process.env.ISOLATE_PROFILE && this.#isolate) this.#isolate.startCpuProfiler("part");
    if (this.config.mode === "host") return this.#hostLoops();
    // The script as the transform would write it: http.get awaited in an async default function.
    for (const ctx of this.#contexts) ctx.evalIgnored(`__loop(async function () { await http.get(__ENV.URL); })`);
  }

  stop(): void {
    this.#stop.abort();
    this.#stopRef?.applyIgnored(undefined, []);
    const dir = process.env.ISOLATE_PROFILE;
    if (dir && this.#isolate) {
      void this.#isolate.stopCpuProfiler("part").then((profiles) => {
        for (const p of profiles) writeFileSync(`${dir}/isolate-${this.config.firstVu}-${p.threadId}.cpuprofile`, JSON.stringify(p.profile));
      });
    }
  }

  dispose(): void {
    for (const ctx of this.#contexts) ctx.release();
    this.#isolate?.dispose();
    void this.#client.close();
    this.#lean.close();
  }

  #hostLoops() {
    const req: HostRequest = { method: "GET", url: this.config.url, headers: {}, tags: {}, responseType: "text" };
    let live = this.config.vus;
    const iterations = this.registry.get("iterations")!;
    const loop = async () => {
      while (!this.#stop.signal.aborted) {
        await this.#send(req);
        iterations.add(1, NO_TAGS);
        this.counts.iterations++;
      }
      if (--live === 0) this.#ended();
    };
    for (let i = 0; i < this.config.vus; i++) void loop();
  }

  #onPost(message: string) {
    this.counts.posts++;
    const [ids, sent, reports, ended] = JSON.parse(message) as [number[], (HostRequest | string)[], unknown[], boolean];
    const requests = sent.map((r): HostRequest => (typeof r === "string" ? { method: "GET", url: r, headers: {}, tags: {}, responseType: "text" } : r));
    const iterations = this.registry.get("iterations")!;
    for (let i = 0; i < reports.length; i++) iterations.add(1, NO_TAGS);
    this.counts.iterations += reports.length;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      void this.#send(requests[i]).then((res) => this.#answer(id, res));
    }
    if (ended) this.#ended();
  }

  async #direct(json: string): Promise<string> {
    return JSON.stringify(await this.#send(JSON.parse(json) as HostRequest));
  }

  #answer(id: number, res: HostResponse) {
    this.#outIds.push(id);
    this.#out.push(this.config.mode === "minimal" ? (res.status as unknown as HostResponse) : res);
    if (this.#deliveryQueued) return;
    this.#deliveryQueued = true;
    // After this turn's I/O callbacks: every answer read in it goes in one call.
    setImmediate(() => {
      this.#deliveryQueued = false;
      const message = JSON.stringify([this.#outIds, this.#out]);
      this.#outIds = [];
      this.#out = [];
      this.counts.deliveries++;
      this.#deliver!.applyIgnored(undefined, [message]);
    });
  }

  /** One request, recorded as VuGroup.#sendAndRecord records it (no tags: no thresholds). */
  async #send(req: HostRequest): Promise<HostResponse> {
    const meter: SendMeter = { sent: 0, received: 0 };
    const http = this.config.http;
    const res = http === "real" ? await this.#client.send(req, this.#stop.signal, meter) : http === "lean" ? await this.#lean.send(req) : fakeResponse(req);
    const r = this.registry;
    const t = res.timings;
    r.add("http_reqs", 1, NO_TAGS);
    r.add("http_req_duration", t.duration, NO_TAGS);
    r.add("http_req_blocked", t.blocked, NO_TAGS);
    r.add("http_req_connecting", t.connecting, NO_TAGS);
    r.add("http_req_tls_handshaking", t.tls_handshaking, NO_TAGS);
    r.add("http_req_sending", t.sending, NO_TAGS);
    r.add("http_req_waiting", t.waiting, NO_TAGS);
    r.add("http_req_receiving", t.receiving, NO_TAGS);
    r.add("http_req_failed", res.status >= 200 && res.status < 400 ? 0 : 1, NO_TAGS);
    r.add("data_sent", meter.sent, NO_TAGS);
    r.add("data_received", meter.received, NO_TAGS);
    this.counts.requests++;
    return res;
  }
}
