// Inside a shared isolate (../shared-isolate.ts): the hub context that carries
// the host traffic of every VU context of the isolate. A VU calls the hub
// directly (one heap, so a cross-context call costs about what a local one
// does); the hub gathers what the VUs asked for while the microtask queue
// drains and posts it to the host as one message, and the host answers many
// requests in one call back. So the isolate and the host cross each other's
// threads once per batch, not once per request, which is what lets one
// isolate drive many VUs (bench/perf/experiments/multi-vu-results.md).

export {};

interface HostRef {
  applyIgnored(self: undefined, args: unknown[]): void;
}

/** A VU context's side of the hub: where its leases start. */
interface VuPort {
  lease(ticket: Ticket): void;
}

/** [exec, iter, iterationInTest, scenario, until, count, sharedIndex]: see entry.ts `loop`. */
type Ticket = [string, number, number, string, number, number, number];

type Done = (answer: unknown) => void;

const g = globalThis as Record<string, unknown>;
const post = g.__hub_post as HostRef;
delete g.__hub_post;

let sends: unknown[] = [];
let sleeps: number[] = [];
let reports: unknown[] = [];
const waiting = new Map<number, Done>();
/** The waiting ids that are sleeps, which a stop ends. */
const sleeping = new Set<number>();
const ports = new Map<number, VuPort>();
/** VUs that ramping-vus turned off: their lease ends after the current iteration. */
const inactive = new Set<number>();
let nextId = 1;
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

function wait(done: Done): number {
  const id = nextId++;
  waiting.set(id, done);
  return id;
}

g.__hub = {
  register(vu: number, port: VuPort) {
    ports.set(vu, port);
  },
  /** One VU's requests (http.get: one; http.batch: several); `done` gets the answers, or the host's error message. */
  send(vu: number, requests: unknown[], done: Done) {
    sends.push([wait(done), vu, requests]);
    schedule();
  },
  sleep(ms: number, done: Done) {
    if (stopped) return done(undefined);
    const id = wait(done);
    sleeping.add(id);
    sleeps.push(id, ms);
    schedule();
  },
  /** An iteration's result; `last` ends the lease. */
  report(vu: number, last: boolean, result: unknown) {
    reports.push([vu, last ? 1 : 0, result]);
    schedule();
  },
  mayContinue(vu: number, until: number): boolean {
    return !stopped && !inactive.has(vu) && (until === 0 || Date.now() < until);
  },
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
  for (const [id, answer] of answers) {
    const done = waiting.get(id);
    waiting.delete(id);
    sleeping.delete(id);
    done?.(answer);
  }
  for (const [vu, ticket] of tickets) ports.get(vu)?.lease(ticket);
};

g.__hub_setActive = (vu: number, active: boolean) => {
  if (active) inactive.delete(vu);
  else inactive.add(vu);
};

/** The run stopped: waiting sleeps end now, later ones at once (the host answers the requests it cut). */
g.__hub_stop = () => {
  stopped = true;
  for (const id of sleeping) {
    const done = waiting.get(id);
    waiting.delete(id);
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
