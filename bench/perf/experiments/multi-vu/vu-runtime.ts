// Inside the experiment's isolate: one VU's context. Its own globals (k6
// wants VUs separate), the engine's real request builder and Response class,
// an asynchronous http.get (what the source transform would make of k6's
// synchronous one) and the VU's iteration loop, which runs here, awaiting
// the script's default function, and hands each iteration's result to the hub.
import { buildRequest, type HostResponse, K6Response, packResponses } from "../../../../server/perf/k6/isolate/http";

interface Hub {
  send(request: unknown, resolve: (answer: HostResponse) => void): void;
  report(result: unknown): void;
  mayContinue(): boolean;
  started(): void;
  ended(): void;
}

const g = globalThis as Record<string, unknown>;
const hub = g.__hub as Hub;
delete g.__hub;
/** The lower bound of the isolate's share: the URL goes out, the status comes back, no k6 Response, no iteration results. */
const minimal = g.__minimal === true;

type Sample = [metric: string, value: number, tags: Record<string, string>];
const state = { samples: [] as Sample[], checks: new Map<string, [string[], string, number, number]>(), groupPath: [] as string[] };

function request(method: string, url: unknown, body: unknown, params: Parameters<typeof buildRequest>[3]): Promise<K6Response> {
  if (minimal) return new Promise((resolve) => hub.send(url, resolve as (a: unknown) => void));
  const req = buildRequest(method, url, body, params, "");
  return new Promise<HostResponse>((resolve) => hub.send(req, resolve)).then((r) => new K6Response(packResponses([r], [req])[0], req));
}

g.http = {
  get: (url: unknown, params?: Parameters<typeof buildRequest>[3]) => request("GET", url, null, params),
};

g.__loop = async (exec: () => Promise<unknown>) => {
  hub.started();
  let iter = 0;
  while (hub.mayContinue()) {
    g.__ITER = iter++;
    let error: string | undefined;
    try {
      await exec();
    } catch (e) {
      error = String(e);
    }
    hub.report(minimal ? 0 : { samples: state.samples, checks: [...state.checks.values()], error });
    state.samples = [];
    state.checks = new Map();
    state.groupPath = [];
  }
  hub.ended();
};
