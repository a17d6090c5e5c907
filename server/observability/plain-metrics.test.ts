import client from "prom-client";
import { describe, expect, it } from "vitest";
import { PlainCounter, PlainHistogram } from "./plain-metrics";

function registryWith() {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service: "web" });
  const counter = new PlainCounter("reqs_total", "Requests", ["method", "status"]);
  const histogram = new PlainHistogram("latency_seconds", "Latency", ["method"], [0.01, 0.1]);
  registry.registerMetric(counter as unknown as client.Metric);
  registry.registerMetric(histogram as unknown as client.Metric);
  return { registry, counter, histogram };
}

describe("plain metrics", () => {
  it("expose counters and cumulative histogram buckets in the Prometheus text format", async () => {
    const { registry, counter, histogram } = registryWith();
    counter.inc({ method: "GET", status: "200" });
    const kept = counter.labels({ method: "GET", status: "200" });
    kept.inc();
    counter.inc({ method: "POST", status: "404" }, 3);
    for (const v of [0.005, 0.01, 0.05, 2]) histogram.observe({ method: "GET" }, v);
    const text = await registry.metrics();
    expect(text).toContain("# TYPE reqs_total counter");
    expect(text).toContain('reqs_total{method="GET",status="200",service="web"} 2');
    expect(text).toContain('reqs_total{method="POST",status="404",service="web"} 3');
    expect(text).toContain("# TYPE latency_seconds histogram");
    expect(text).toContain('latency_seconds_bucket{method="GET",le="0.01",service="web"} 2');
    expect(text).toContain('latency_seconds_bucket{method="GET",le="0.1",service="web"} 3');
    expect(text).toContain('latency_seconds_bucket{method="GET",le="+Inf",service="web"} 4');
    expect(text).toContain('latency_seconds_sum{method="GET",service="web"} 2.065');
    expect(text).toContain('latency_seconds_count{method="GET",service="web"} 4');
  });

  it("sum across processes with prom-client's aggregator, as /metrics does for the two web processes", async () => {
    const a = registryWith();
    const b = registryWith();
    a.counter.inc({ method: "GET", status: "200" }, 2);
    b.counter.inc({ method: "GET", status: "200" }, 5);
    a.histogram.observe({ method: "GET" }, 0.001);
    b.histogram.observe({ method: "GET" }, 0.5);
    const merged = client.AggregatorRegistry.aggregate([await a.registry.getMetricsAsJSON(), await b.registry.getMetricsAsJSON()]);
    const text = await merged.metrics();
    expect(text).toContain('reqs_total{method="GET",status="200",service="web"} 7');
    expect(text).toContain('latency_seconds_bucket{method="GET",le="0.01",service="web"} 1');
    expect(text).toContain('latency_seconds_count{method="GET",service="web"} 2');
  });
});

describe("plain metrics reset", () => {
  it("registry.resetMetrics() empties every series", async () => {
    const { registry, counter, histogram } = registryWith();
    counter.inc({ method: "GET", status: "200" });
    histogram.observe({ method: "GET" }, 0.5);
    registry.resetMetrics();
    const text = await registry.metrics();
    expect(text).not.toContain("reqs_total{");
    expect(text).not.toContain("latency_seconds_count{");
  });
});
