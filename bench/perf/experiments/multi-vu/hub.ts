// Inside the experiment's isolate: the hub context, one per isolate, that
// carries every VU context's host traffic. VUs call hub.send() directly
// (a cross-context call in one isolate heap costs about what a local one
// does); the hub gathers what the VUs asked for in one turn of the microtask
// queue and posts it to the host as one message, and the host answers many
// requests in one call back. So the isolate and the host cross each other's
// threads once per batch, not once per request.
//
// "direct" mode (the comparison) crosses once per request instead: each
// send is its own async host call whose promise the isolate awaits.

export {};

interface HostRef {
  applyIgnored(self: undefined, args: unknown[]): void;
  apply(self: undefined, args: unknown[], opts: unknown): Promise<unknown>;
}

type Resolve = (answer: unknown) => void;

const g = globalThis as Record<string, unknown>;
const take = <T>(name: string): T => {
  const v = g[name] as T;
  delete g[name];
  return v;
};
const post = take<HostRef>("__post");
const direct = take<HostRef | undefined>("__direct");

let ids: number[] = [];
let requests: unknown[] = [];
let reports: unknown[] = [];
const waiters = new Map<number, Resolve>();
let nextId = 1;
let scheduled = false;
let hops = 0;
let stopped = false;
let live = 0;
const resolved = Promise.resolve();

// A VU's continuation after its answer takes a few microtask hops (the
// awaits between the hub's resolve and its next send), and every VU moves
// one hop per pass of the queue; waiting a few passes gathers all of them.
const HOPS = 4;

function flush() {
  if (hops++ < HOPS) {
    resolved.then(flush);
    return;
  }
  hops = 0;
  scheduled = false;
  if (ids.length === 0 && reports.length === 0) return;
  const message = JSON.stringify([ids, requests, reports, live === 0]);
  ids = [];
  requests = [];
  reports = [];
  post.applyIgnored(undefined, [message]);
}

function schedule() {
  if (scheduled) return;
  scheduled = true;
  resolved.then(flush);
}

g.hub = {
  send(request: unknown, resolve: Resolve) {
    if (direct) {
      // One crossing each way per request, the host's promise settling the isolate's.
      direct.apply(undefined, [JSON.stringify(request)], { result: { promise: true } }).then((json) => resolve(JSON.parse(json as string)));
      return;
    }
    const id = nextId++;
    waiters.set(id, resolve);
    ids.push(id);
    requests.push(request);
    schedule();
  },
  /** An iteration's result (samples, checks, error): it travels with the next batch. */
  report(result: unknown) {
    reports.push(result);
    if (direct) {
      post.applyIgnored(undefined, [JSON.stringify([[], [], reports, live === 0])]);
      reports = [];
    }
  },
  mayContinue() {
    return !stopped;
  },
  started() {
    live++;
  },
  ended() {
    live--;
    if (live === 0) {
      if (direct) post.applyIgnored(undefined, [JSON.stringify([[], [], reports, true])]);
      else schedule();
    }
  },
};

/** The host's answers: [ids, responses] as JSON. */
g.__deliver = (json: string) => {
  const [answered, responses] = JSON.parse(json) as [number[], unknown[]];
  for (let i = 0; i < answered.length; i++) {
    const w = waiters.get(answered[i])!;
    waiters.delete(answered[i]);
    w(responses[i]);
  }
};

g.__stop = () => {
  stopped = true;
};
