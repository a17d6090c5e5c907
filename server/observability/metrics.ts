// Prometheus metrics. The registry lives on globalThis (the Next bundle has its
// own module copies). server.ts records stub traffic in its process, the Next.js
// process records the rest; /metrics (served by the Next process) adds the
// stub server's numbers, asked for over the IPC channel between the two.
import client from "prom-client";
import { PlainCounter, PlainHistogram, type CounterSeries, type HistogramSeries } from "./plain-metrics";
import { allEndpoints } from "@/server/contracts/api";

interface Metrics {
  registry: client.Registry;
  requests: PlainCounter;
  duration: PlainHistogram;
}

const g = globalThis as unknown as { __polymockMetrics?: Metrics };

export function metrics(): Metrics {
  if (g.__polymockMetrics) return g.__polymockMetrics;
  const registry = new client.Registry();
  registry.setDefaultLabels({ service: process.env.SERVICE_NAME ?? "web" });
  client.collectDefaultMetrics({ register: registry });
  const requests = new PlainCounter("http_requests_total", "HTTP requests by method, route pattern and status", ["method", "route", "status"]);
  const duration = new PlainHistogram("http_request_duration_seconds", "HTTP request latency by method and route pattern", ["method", "route"], [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
  // The registry needs only name, get() and reset() of a metric.
  registry.registerMetric(requests as unknown as client.Metric);
  registry.registerMetric(duration as unknown as client.Metric);
  g.__polymockMetrics = { registry, requests, duration };
  return g.__polymockMetrics;
}

// Route patterns keep label cardinality bounded: /api/v1/auth/tokens/{id}, not one series per id.
const patterns = allEndpoints
  .map((e) => ({ path: e.path, re: new RegExp("^" + e.path.replace(/\{[^}]+\}/g, "[^/]+") + "/?$") }))
  .sort((a, b) => b.path.length - a.path.length);

export function routeLabel(pathname: string): string {
  if (pathname.startsWith("/stubs/") || pathname === "/stubs") return "/stubs";
  if (pathname.startsWith("/_next/")) return "/_next";
  if (pathname.startsWith("/api/trpc/")) return "/api/trpc";
  const p = pathname.replace(/^\/api\/v1\/namespaces\/[^/]+\/(?!$)/, "/api/v1/");
  for (const { path, re } of patterns) if (re.test(p)) return path;
  if (pathname.startsWith("/api/")) return "/api/other";
  return "page";
}

export function observeRequest(method: string, pathname: string, status: number, seconds: number) {
  const m = metrics();
  const route = routeLabel(pathname);
  m.requests.inc({ method, route, status: String(status) });
  m.duration.observe({ method, route }, seconds);
}

// Stub traffic is the hot path: its label sets are few (method × status), so
// the labelled children are looked up once and kept, instead of hashing the
// labels on every request.
const stubChildren = new Map<string, { count: CounterSeries; duration: HistogramSeries }>();

export function observeStub(method: string, status: number, seconds: number) {
  const key = method + " " + status;
  let c = stubChildren.get(key);
  if (!c) {
    const m = metrics();
    c = { count: m.requests.labels({ method, route: "/stubs", status: String(status) }), duration: m.duration.labels({ method, route: "/stubs" }) };
    if (stubChildren.size < 1000) stubChildren.set(key, c);
  }
  c.count.inc();
  c.duration.observe(seconds);
}

type MetricsJson = Awaited<ReturnType<client.Registry["getMetricsAsJSON"]>>;
type MetricsMessage = { type: "metrics-request"; id: number } | { type: "metrics"; id: number; metrics: MetricsJson };
let nextRequestId = 0;

/** The stub server's metrics, when this is the Next.js process it started (undefined otherwise or if it does not answer in a second). */
function parentMetrics(): Promise<MetricsJson | undefined> {
  if (!process.send || !process.env.POLYMOCK_NEXT_SOCKET) return Promise.resolve(undefined);
  const id = ++nextRequestId;
  return new Promise((resolve) => {
    const done = (value: MetricsJson | undefined) => {
      clearTimeout(timer);
      process.off("message", onMessage);
      resolve(value);
    };
    const onMessage = (m: MetricsMessage) => {
      if (m?.type === "metrics" && m.id === id) done(m.metrics);
    };
    const timer = setTimeout(() => done(undefined), 1000);
    process.on("message", onMessage);
    process.send!({ type: "metrics-request", id } satisfies MetricsMessage);
  });
}

/** Answers the Next.js process's requests for this process's metrics. */
export function serveMetricsTo(child: import("node:child_process").ChildProcess) {
  child.on("message", (m: MetricsMessage) => {
    if (m?.type !== "metrics-request") return;
    void metrics()
      .registry.getMetricsAsJSON()
      .then((json) => child.connected && child.send({ type: "metrics", id: m.id, metrics: json } satisfies MetricsMessage));
  });
}

/** The Prometheus text of this process, summed with the stub server's when there is one (counters and histograms add up; gauges use prom-client's per-metric aggregator). */
export async function metricsExposition(): Promise<{ text: string; contentType: string }> {
  const { registry } = metrics();
  const parent = await parentMetrics();
  if (!parent) return { text: await registry.metrics(), contentType: registry.contentType };
  const merged = client.AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), parent]);
  return { text: await merged.metrics(), contentType: merged.contentType };
}
