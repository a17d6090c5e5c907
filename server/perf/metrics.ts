// The four k6 metric types and their aggregates. Trends keep an HDR
// histogram (3 significant digits, values in microseconds) for percentiles,
// plus exact count/sum/min/max, so memory stays constant however long a run
// lasts and two runners' results merge exactly by adding histograms.
// Thresholds on tag-filtered metrics (`http_req_duration{status:200}`) read
// submetrics, which see only the samples whose tags match their filter.
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type JsHistogram } from "hdr-histogram-js";
import type { MetricType, MetricValues } from "./thresholds";

export type Tags = Record<string, string>;

/** One metric's state in a form that travels between processes (runner → web) and merges. */
export type AggregateSnapshot =
  | { type: "counter"; count: number }
  | { type: "gauge"; value: number; min: number; max: number; set: boolean }
  | { type: "rate"; passes: number; fails: number }
  | { type: "trend"; count: number; sum: number; min: number; max: number; histogram: string };

function newHistogram(): JsHistogram {
  // JS, not WebAssembly: no async init per VU, and the recording cost is the same order.
  return build({ bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false }) as JsHistogram;
}

/** Milliseconds (possibly fractional) ↔ whole microseconds in the histogram. */
const TO_UNITS = 1000;

/**
 * Records a whole, non-negative value as JsHistogram.recordValue does, with
 * the bucket found by integer arithmetic: the library's Math.log2 and two
 * Math.pow per value were a visible cost at the eight trend samples a load
 * test records per request. Values of 2^31 or more (35 minutes in
 * microseconds) and a histogram that must grow take the library's path.
 */
export function recordWhole(h: JsHistogram, value: number): void {
  if (value >= 0x80000000 || h.unitMagnitude !== 0) return h.recordValue(value);
  const mag = h.subBucketHalfCountMagnitude;
  // floor(log2(value)) - mag, at least 0 (value 0 included, as the library's max(-Infinity, 0)).
  const bucket = Math.max(31 - Math.clz32(value) - mag, 0);
  const index = ((bucket + 1) << mag) + (value >>> bucket) - h.subBucketHalfCount;
  if (index >= h.countsArrayLength) return h.recordValue(value);
  h.incrementCountAtIndex(index);
  h.updateMinAndMax(value);
  h.incrementTotalCount();
}

export interface Aggregate {
  add(value: number): void;
  values(durationMs: number): MetricValues;
  snapshot(): AggregateSnapshot;
  merge(other: AggregateSnapshot): void;
}

class CounterAggregate implements Aggregate {
  count = 0;
  add(v: number) {
    this.count += v;
  }
  values(durationMs: number): MetricValues {
    return { count: this.count, rate: durationMs > 0 ? this.count / (durationMs / 1000) : 0 };
  }
  snapshot(): AggregateSnapshot {
    return { type: "counter", count: this.count };
  }
  merge(o: AggregateSnapshot) {
    if (o.type === "counter") this.count += o.count;
  }
}

class GaugeAggregate implements Aggregate {
  value = 0;
  min = Infinity;
  max = -Infinity;
  set = false;
  add(v: number) {
    this.value = v;
    this.set = true;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  values(): MetricValues {
    return this.set ? { value: this.value, min: this.min, max: this.max } : {};
  }
  snapshot(): AggregateSnapshot {
    return { type: "gauge", value: this.value, min: this.min, max: this.max, set: this.set };
  }
  merge(o: AggregateSnapshot) {
    // Gauges of several runners (e.g. vus) add up: each holds its share.
    if (o.type !== "gauge" || !o.set) return;
    this.value = this.set ? this.value + o.value : o.value;
    this.min = Math.min(this.min, o.min);
    this.max = this.set ? this.max + o.max : o.max;
    this.set = true;
  }
}

class RateAggregate implements Aggregate {
  passes = 0;
  fails = 0;
  add(v: number) {
    if (v) this.passes++;
    else this.fails++;
  }
  values(): MetricValues {
    const total = this.passes + this.fails;
    return total === 0 ? {} : { rate: this.passes / total, count: total };
  }
  snapshot(): AggregateSnapshot {
    return { type: "rate", passes: this.passes, fails: this.fails };
  }
  merge(o: AggregateSnapshot) {
    if (o.type !== "rate") return;
    this.passes += o.passes;
    this.fails += o.fails;
  }
}

class TrendAggregate implements Aggregate {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  private histogram = newHistogram();
  add(v: number) {
    if (!Number.isFinite(v)) return;
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
    recordWhole(this.histogram, Math.max(0, Math.round(v * TO_UNITS)));
  }
  percentile(p: number): number {
    if (this.count === 0) return NaN;
    if (p >= 100) return this.max;
    if (p <= 0) return this.min;
    // A bucket spans 0.1 % of its value: when it holds the exact min or max, that is the answer
    // (repeated values print as written); otherwise the bucket's lowest value.
    const at = this.histogram.getValueAtPercentile(p);
    const low = this.histogram.lowestEquivalentValue(at) / TO_UNITS;
    const high = this.histogram.highestEquivalentValue(at) / TO_UNITS;
    if (this.max >= low && this.max <= high) return this.max;
    if (this.min >= low && this.min <= high) return this.min;
    return Math.min(this.max, Math.max(this.min, low));
  }
  values(): MetricValues {
    if (this.count === 0) return {};
    return { count: this.count, avg: this.sum / this.count, min: this.min, max: this.max, med: this.percentile(50), percentile: (p) => this.percentile(p) };
  }
  snapshot(): AggregateSnapshot {
    return { type: "trend", count: this.count, sum: this.sum, min: this.min, max: this.max, histogram: encodeIntoCompressedBase64(this.histogram) };
  }
  merge(o: AggregateSnapshot) {
    if (o.type !== "trend" || o.count === 0) return;
    this.count += o.count;
    this.sum += o.sum;
    this.min = Math.min(this.min, o.min);
    this.max = Math.max(this.max, o.max);
    this.histogram.add(decodeFromCompressedBase64(o.histogram, 32, false) as JsHistogram);
  }
}

export function newAggregate(type: MetricType): Aggregate {
  switch (type) {
    case "counter":
      return new CounterAggregate();
    case "gauge":
      return new GaugeAggregate();
    case "rate":
      return new RateAggregate();
    case "trend":
      return new TrendAggregate();
  }
}

export function aggregateFromSnapshot(s: AggregateSnapshot): Aggregate {
  const a = newAggregate(s.type);
  a.merge(s);
  return a;
}

function tagsMatch(filter: Tags, tags: Tags): boolean {
  for (const k in filter) if (tags[k] !== filter[k]) return false;
  return true;
}

export interface MetricDefinition {
  name: string;
  type: MetricType;
  /** Trend values are durations (printed as such in the summary); k6's `isTime`. */
  isTime: boolean;
}

interface Submetric {
  filter: Tags;
  aggregate: Aggregate;
}

export class Metric {
  readonly all: Aggregate;
  readonly submetrics = new Map<string, Submetric>();
  constructor(readonly definition: MetricDefinition) {
    this.all = newAggregate(definition.type);
  }

  /** Starts keeping the aggregate of samples whose tags match `filter` (for a threshold's key). */
  watch(key: string, filter: Tags) {
    if (!this.submetrics.has(key)) this.submetrics.set(key, { filter, aggregate: newAggregate(this.definition.type) });
  }

  add(value: number, tags: Tags) {
    this.all.add(value);
    // Most metrics have no submetric: no iterator for them (a dozen samples per request).
    if (this.submetrics.size !== 0) for (const s of this.submetrics.values()) if (tagsMatch(s.filter, tags)) s.aggregate.add(value);
  }
}

/** The k6 built-in metrics every run reports. */
export const BUILT_IN_METRICS: MetricDefinition[] = [
  { name: "vus", type: "gauge", isTime: false },
  { name: "vus_max", type: "gauge", isTime: false },
  { name: "iterations", type: "counter", isTime: false },
  { name: "iteration_duration", type: "trend", isTime: true },
  { name: "dropped_iterations", type: "counter", isTime: false },
  { name: "data_received", type: "counter", isTime: false },
  { name: "data_sent", type: "counter", isTime: false },
  { name: "checks", type: "rate", isTime: false },
  { name: "http_reqs", type: "counter", isTime: false },
  { name: "http_req_blocked", type: "trend", isTime: true },
  { name: "http_req_connecting", type: "trend", isTime: true },
  { name: "http_req_tls_handshaking", type: "trend", isTime: true },
  { name: "http_req_sending", type: "trend", isTime: true },
  { name: "http_req_waiting", type: "trend", isTime: true },
  { name: "http_req_receiving", type: "trend", isTime: true },
  { name: "http_req_duration", type: "trend", isTime: true },
  { name: "http_req_failed", type: "rate", isTime: false },
  { name: "group_duration", type: "trend", isTime: true },
];

const CUSTOM_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;

export class MetricRegistry {
  private metrics = new Map<string, Metric>();
  constructor(definitions: MetricDefinition[] = BUILT_IN_METRICS) {
    for (const d of definitions) this.metrics.set(d.name, new Metric(d));
  }

  /** A script's `new Trend("name", true)`: the same name twice must keep its type (k6 refuses a change). */
  define(name: string, type: MetricType, isTime = false): Metric {
    if (!CUSTOM_NAME.test(name)) throw new Error(`invalid metric name "${name}": letters, digits and _ only, at most 128`);
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.definition.type !== type) throw new Error(`metric "${name}" is already a ${existing.definition.type}, not a ${type}`);
      return existing;
    }
    const m = new Metric({ name, type, isTime });
    this.metrics.set(name, m);
    return m;
  }

  get(name: string): Metric | undefined {
    return this.metrics.get(name);
  }

  typeOf = (name: string): MetricType | undefined => this.metrics.get(name)?.definition.type;

  add(name: string, value: number, tags: Tags) {
    this.metrics.get(name)?.add(value, tags);
  }

  /** Metrics that received at least one sample, in k6's summary order (by name). */
  entries(): Metric[] {
    return [...this.metrics.values()].sort((a, b) => a.definition.name.localeCompare(b.definition.name));
  }

  snapshot(): Record<string, { definition: MetricDefinition; all: AggregateSnapshot; submetrics: Record<string, { filter: Tags; aggregate: AggregateSnapshot }> }> {
    const out: ReturnType<MetricRegistry["snapshot"]> = {};
    for (const m of this.metrics.values()) {
      const submetrics: Record<string, { filter: Tags; aggregate: AggregateSnapshot }> = {};
      for (const [k, s] of m.submetrics) submetrics[k] = { filter: s.filter, aggregate: s.aggregate.snapshot() };
      out[m.definition.name] = { definition: m.definition, all: m.all.snapshot(), submetrics };
    }
    return out;
  }

  /** Adds another registry's snapshot (another VU group or runner) into this one. */
  merge(snapshot: ReturnType<MetricRegistry["snapshot"]>) {
    for (const [name, s] of Object.entries(snapshot)) {
      const m = this.metrics.get(name) ?? this.define(name, s.definition.type, s.definition.isTime);
      m.all.merge(s.all);
      for (const [k, sub] of Object.entries(s.submetrics)) {
        m.watch(k, sub.filter);
        m.submetrics.get(k)!.aggregate.merge(sub.aggregate);
      }
    }
  }
}
