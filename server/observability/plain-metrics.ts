// A labelled counter and histogram for prom-client's Registry whose labelled
// series are plain objects with numbers. prom-client's own validate and hash
// the label set on every observation, even through a `labels()` child, which
// cost the stub path a few per cent of its CPU. The registry needs only
// `name`, `get()` and `reset()` of a metric.
type Labels = Record<string, string>;

interface MetricValue {
  labels: Labels;
  value: number;
  metricName?: string;
}

interface MetricSnapshot {
  name: string;
  help: string;
  type: "counter" | "histogram";
  aggregator: "sum";
  values: MetricValue[];
}

/** The series of a metric, one per label set. */
abstract class Labelled<S> {
  protected series = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  protected abstract create(labels: Labels): S;

  /** The series of one label set; keep it to count without a lookup. */
  labels(labels: Labels): S {
    let key = "";
    for (const n of this.labelNames) key += (labels[n] ?? "") + "\u0000";
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = this.create({ ...labels })));
    return s;
  }

  reset() {
    this.series.clear();
  }

}

export class CounterSeries {
  value = 0;
  constructor(readonly labels: Labels) {}
  inc(by = 1) {
    this.value += by;
  }
}

export class PlainCounter extends Labelled<CounterSeries> {
  readonly type = "counter";

  protected create(labels: Labels) {
    return new CounterSeries(labels);
  }

  inc(labels: Labels, by = 1) {
    this.labels(labels).inc(by);
  }

  get(): MetricSnapshot {
    return { name: this.name, help: this.help, type: "counter", aggregator: "sum", values: [...this.series.values()].map((s) => ({ labels: s.labels, value: s.value })) };
  }

}

export class HistogramSeries {
  count = 0;
  sum = 0;
  /** Per bucket (not cumulative), the last one is +Inf. */
  readonly counts: Float64Array;
  constructor(
    readonly labels: Labels,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(value: number) {
    const b = this.bounds;
    let i = 0;
    while (i < b.length && value > b[i]) i++;
    this.counts[i]++;
    this.count++;
    this.sum += value;
  }
}

export class PlainHistogram extends Labelled<HistogramSeries> {
  readonly type = "histogram";

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    readonly buckets: readonly number[],
  ) {
    super(name, help, labelNames);
  }

  protected create(labels: Labels) {
    return new HistogramSeries(labels, this.buckets);
  }

  observe(labels: Labels, value: number) {
    this.labels(labels).observe(value);
  }

  get(): MetricSnapshot {
    const values: MetricValue[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      for (let i = 0; i <= this.buckets.length; i++) {
        cumulative += s.counts[i];
        values.push({ labels: { ...s.labels, le: i < this.buckets.length ? String(this.buckets[i]) : "+Inf" }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: "histogram", aggregator: "sum", values };
  }

}
