// What the broker sessions (RabbitMQ, NATS, Kafka) share: their work runs one
// task at a time (connect, re-read what to consume, close), a state change is
// reported once (not on every retry that fails the same way), and a failed
// or lost connection is tried again after a back-off of 1 s doubling to
// 30 s, reset once connected.

export interface SessionReporting {
  onState(state: "listening" | "error", reason: string | null): void;
  backoff?: { firstMs: number; maxMs: number };
}

export abstract class ReconnectingSession {
  protected closed = false;
  private attempt = 0;
  private timer?: NodeJS.Timeout;
  private chain: Promise<void> = Promise.resolve();
  private lastState?: string;

  constructor(private readonly reporting: SessionReporting) {}

  /** Opens the connection and sets up what to consume; on failure, reports and calls schedule(). */
  protected abstract connectNow(): Promise<void>;

  start() {
    void this.connectNow();
  }

  protected serial(task: () => Promise<void>): Promise<void> {
    const next = this.chain.then(task, task);
    this.chain = next.catch(() => {});
    return next;
  }

  protected report(state: "listening" | "error", reason: string | null) {
    const key = `${state}\u0000${reason}`;
    if (key === this.lastState) return;
    this.lastState = key;
    this.reporting.onState(state, reason);
  }

  /** The connection is up: the next failure waits the first back-off again. */
  protected connected() {
    this.attempt = 0;
  }

  protected schedule() {
    if (this.closed) return;
    const { firstMs, maxMs } = this.reporting.backoff ?? { firstMs: 1000, maxMs: 30_000 };
    const wait = Math.min(maxMs, firstMs * 2 ** this.attempt++);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connectNow(), wait);
    this.timer.unref();
  }

  /** No more retries; resolves once the task in progress is done. */
  protected async stopRetrying() {
    this.closed = true;
    clearTimeout(this.timer);
    await this.chain.catch(() => {});
  }
}
