// Inside a shared isolate (../shared-isolate.ts): the hub context that carries
// the host traffic of every VU context of the isolate. A VU calls the hub
// directly (one heap, so a cross-context call costs about what a local one
// does); the hub gathers what the VUs asked for while the microtask queue
// drains and posts it to the host as one message, and the host answers many
// requests in one call back. So the isolate and the host cross each other's
// threads once per batch, not once per request, which is what lets one
// isolate drive many VUs (bench/perf/experiments/multi-vu-results.md).

import { buildRequest, type HostRequest, type RequestParams } from "./http";

interface HostRef {
  applyIgnored(self: undefined, args: unknown[]): void;
}

/**
 * A VU context's side of the hub: what the hub's lease loop runs in it. The
 * loop itself lives here, once per isolate, rather than once per VU context:
 * V8 optimises a function separately for every context it is instantiated
 * in, and 50 VU contexts optimising their own copies of the lease loop kept
 * the compiler threads busy for the first seconds of every run
 * (docs/decisions.md, "Load engine: one lease loop per isolate").
 */
interface VuPort {
  /** The VU's state (entry.ts `state`): what the loop reads of it. */
  state: { data: unknown; testAborted: boolean };
  /** Starts an iteration: its numbers in the VU's state, its samples and checks fresh. */
  begin(iter: number, iterationInTest: number, scenario: string): void;
  /** The script's export of that name (called from here, so it is not inlined into, and optimised with, a caller per context). */
  exported(name: string): unknown;
  /** The iteration's result (`error`: what it threw, if it did), or 0 when it has nothing to report. */
  outcome(error?: unknown): unknown;
  /** An Error of the VU's context, so a script's `catch (e)` sees its own kind. */
  error(message: string): Error;
  /** entry.ts's K6Response of the VU's context: the response a script gets is an object of its own context. */
  Response: new (packed: unknown, req: unknown) => unknown;
  /** The run's counters (entry.ts `counters`): [0] the next iterationInTest, [1…] shared-iterations left. */
  counters: Int32Array;
}

/** [exec, iter, iterationInTest, scenario, until, count, sharedIndex]: see entry.ts `loop`. */
type Ticket = [string, number, number, string, number, number, number];

type Done = (answer: unknown) => void;

/**
 * A request with nothing but a method and a URL (`http.get(url)`, the
 * commonest call in a load script): built once, its object shared by every
 * call (nothing writes to a request once built), and known to the host by
 * number after the first post that carries it, so it is neither written nor
 * parsed as JSON again.
 */
class RequestTemplate {
  posted = false;
  constructor(
    readonly id: number,
    readonly req: HostRequest,
  ) {}
}

/** Templates a hub keeps at most: a script with more distinct bare requests (ids in its URLs) sends the rest whole. */
const MAX_TEMPLATES = 1024;
/** By method, group and URL, each length-prefixed so that no two triples share a key. */
const templates = new Map<string, RequestTemplate>();

/** A VU's one request (http.get and the like): its answer becomes the VU's K6Response, or rejects with the host's error. */
class Pending {
  constructor(
    readonly port: VuPort,
    readonly req: unknown,
    readonly resolve: (r: unknown) => void,
    readonly reject: (e: unknown) => void,
  ) {}

  settle(answer: unknown) {
    if (typeof answer === "string") this.reject(this.port.error(answer));
    else this.resolve(new this.port.Response((answer as unknown[])[0], this.req));
  }
}

const g = globalThis as Record<string, unknown>;
const post = g.__hub_post as HostRef;
delete g.__hub_post;

let sends: unknown[] = [];
let sleeps: number[] = [];
let reports: unknown[] = [];
/**
 * The sends and sleeps waiting for the host, by id: an array whose slot is
 * cleared when the answer comes, and ids reused, rather than a Map. Each
 * rehash of a Map leaves its old table behind still pointing at the entries
 * it held; once such a table is in the old generation it keeps them alive
 * through every scavenge until the next full collection, so they were
 * promoted with everything they reach (a pending request, its promise, the
 * response it resolved to: 1.2 MB a scavenge at 50 VUs, against nothing with
 * this array; docs/decisions.md, "Load engine: one lease loop per isolate").
 */
const waiting: (Done | Pending | undefined)[] = [];
/** Ids whose answer came: the next waits take them. */
const freeIds: number[] = [];
/** The waiting ids that are sleeps, which a stop ends. */
const sleeping = new Set<number>();
const ports = new Map<number, VuPort>();
/** VUs that ramping-vus turned off: their lease ends after the current iteration. */
const inactive = new Set<number>();
let scheduled = false;
let passes = 0;
let stopped = false;
/** The last delivery run here: every post acknowledges it, so the host knows the isolate is free for the next. */
let delivered = 0;
let unacknowledged = false;
let closed: (() => void) | undefined;
const resolved = Promise.resolve();

// A VU's continuation after its answer takes a few microtask hops (the awaits
// between the hub's callback and its next call), and every VU moves one hop
// per pass of the queue: waiting a few passes gathers all of them in one post.
const PASSES = 4;

function flush() {
  if (passes++ < PASSES) {
    void resolved.then(flush);
    return;
  }
  passes = 0;
  scheduled = false;
  if (sends.length === 0 && sleeps.length === 0 && reports.length === 0 && !unacknowledged) return;
  unacknowledged = false;
  const message = JSON.stringify([sends, sleeps, reports, delivered]);
  sends = [];
  sleeps = [];
  reports = [];
  post.applyIgnored(undefined, [message]);
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  void resolved.then(flush);
}

/**
 * A lease's iterations, run one after the other: each a call of the
 * script's export, awaited when it returns a promise, its result reported to
 * the host (the last one marked), as entry.ts `loop` runs them for a VU of
 * its own isolate.
 */
class LeaseRun {
  #iter: number;
  #inTest: number;
  #left: number;
  /** What the export threw synchronously, handed to #end a microtask later (a loop that throws every time must still yield). */
  #thrown: unknown;

  constructor(
    readonly vu: number,
    readonly port: VuPort,
    readonly ticket: Ticket,
  ) {
    this.#iter = ticket[1];
    this.#inTest = ticket[2];
    this.#left = ticket[5];
  }

  readonly #done = () => this.#end(undefined);
  readonly #failed = (e: unknown) => this.#end(e);
  readonly #threw = () => this.#end(this.#thrown);

  next(): void {
    const port = this.port;
    const t = this.ticket;
    port.begin(this.#iter, this.#inTest, t[3]);
    try {
      const fn = port.exported(t[0]);
      if (typeof fn !== "function") throw port.error(`the script exports no function "${t[0]}"`);
      const r = (fn as (data: unknown) => unknown)(port.state.data);
      if (r !== null && typeof r === "object" && typeof (r as PromiseLike<unknown>).then === "function") {
        (r as PromiseLike<unknown>).then(this.#done, this.#failed);
        return;
      }
    } catch (e) {
      this.#thrown = e;
      void resolved.then(this.#threw);
      return;
    }
    void resolved.then(this.#done);
  }

  #end(error: unknown) {
    this.#thrown = undefined;
    const port = this.port;
    const t = this.ticket;
    const sharedIndex = t[6];
    const result = port.outcome(error);
    this.#left--;
    const last = this.#left === 0 || port.state.testAborted || !mayContinue(this.vu, t[4]) || (sharedIndex >= 0 && Atomics.sub(port.counters, sharedIndex, 1) <= 0);
    reports.push([this.vu, last ? 1 : 0, result]);
    schedule();
    if (last) return;
    this.#iter++;
    this.#inTest = Atomics.add(port.counters, 0, 1);
    this.next();
  }
}

function mayContinue(vu: number, until: number): boolean {
  return !stopped && !inactive.has(vu) && (until === 0 || Date.now() < until);
}

function wait(done: Done | Pending): number {
  const id = freeIds.length > 0 ? freeIds.pop()! : waiting.length;
  waiting[id] = done;
  return id;
}

g.__hub = {
  register(vu: number, port: VuPort) {
    ports.set(vu, port);
  },
  /** One VU's requests (http.batch: several); `done` gets the answers, or the host's error message. */
  send(vu: number, requests: unknown[], done: Done) {
    sends.push([wait(done), vu, requests]);
    schedule();
  },
  /** One VU's one request (http.get and the like): settles with its K6Response, or rejects with the host's error. */
  request(vu: number, method: string, url: unknown, body: unknown, params: RequestParams | undefined, group: string, resolve: (r: unknown) => void, reject: (e: unknown) => void) {
    const port = ports.get(vu);
    if (!port) return reject(new Error(`VU ${vu} is not registered with the hub`));
    if (params === undefined && (body === null || body === undefined) && typeof url === "string") {
      const key = `${method.length}:${method}${group.length}:${group}${url}`;
      let t = templates.get(key);
      if (t === undefined && templates.size < MAX_TEMPLATES) {
        t = new RequestTemplate(templates.size, buildRequest(method, url, body, params, group));
        templates.set(key, t);
      }
      if (t !== undefined) {
        const id = wait(new Pending(port, t.req, resolve, reject));
        if (t.posted) sends.push([id, vu, t.id]);
        else {
          t.posted = true;
          sends.push([id, vu, [t.req], t.id]);
        }
        schedule();
        return;
      }
    }
    const req = buildRequest(method, url, body, params, group);
    sends.push([wait(new Pending(port, req, resolve, reject)), vu, [req]]);
    schedule();
  },
  sleep(ms: number, done: Done) {
    if (stopped) return done(undefined);
    const id = wait(done);
    sleeping.add(id);
    sleeps.push(id, ms);
    schedule();
  },
  /** entry.ts's buildRequest, here so that its optimised code serves every VU of the isolate. */
  build: buildRequest,
};

/**
 * The host's answers, one call for many: [[id, answer]…] settles waiting
 * sends and sleeps; [[vu, ticket]…] starts leases. The post that follows
 * (there always is one) acknowledges the delivery's number.
 */
g.__hub_deliver = (json: string) => {
  const [answers, tickets, seq] = JSON.parse(json) as [[number, unknown][], [number, Ticket][], number];
  delivered = seq;
  unacknowledged = true;
  schedule();
  // Indexed, not destructured: an array pattern compiles to the iterator protocol, a larger graph for the optimiser.
  for (let i = 0; i < answers.length; i++) {
    const id = answers[i][0];
    const done = waiting[id];
    if (done === undefined) continue;
    waiting[id] = undefined;
    freeIds.push(id);
    sleeping.delete(id);
    if (done instanceof Pending) done.settle(answers[i][1]);
    else done(answers[i][1]);
  }
  for (let i = 0; i < tickets.length; i++) {
    const port = ports.get(tickets[i][0]);
    if (port) new LeaseRun(tickets[i][0], port, tickets[i][1]).next();
  }
};

g.__hub_setActive = (vu: number, active: boolean) => {
  if (active) inactive.delete(vu);
  else inactive.add(vu);
};

/** The run stopped: waiting sleeps end now, later ones at once (the host answers the requests it cut). */
g.__hub_stop = () => {
  stopped = true;
  for (const id of sleeping) {
    // A sleep waits with a Done, never a Pending.
    const done = waiting[id] as Done | undefined;
    // Not freed: the host may still have this sleep's answer on its way, which must find nothing here.
    waiting[id] = undefined;
    done?.(undefined);
  }
  sleeping.clear();
};

g.__hub_forget = (vu: number) => {
  ports.delete(vu);
  inactive.delete(vu);
};

/** Pending until close: the host learns from its rejection that the isolate died (memory limit, CPU watchdog). */
g.__hub_open = () => new Promise<void>((resolve) => (closed = resolve));
g.__hub_close = () => closed?.();
