// Inside the isolate: the state of the one script currently running — what it
// has logged, declared and scheduled since the host last looked (the outbox),
// and whether anything is still pending. Every pm object is bound to its Run,
// so a callback left over from an earlier script cannot write into this one.
import type { IsolateInput, Outbox, RawError } from "../protocol";

export class OutputLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutputLimitError";
  }
}

/** Thrown by pm.execution.skipRequest() to stop the script, as Postman does; never reported as an error. */
export const SKIP_SIGNAL: unique symbol = Symbol("skipRequest");

export interface TimerEntry {
  fn: (...args: unknown[]) => unknown;
  args: unknown[];
  ms: number;
  repeat: boolean;
}

export interface SendEntry {
  callback?: (err: unknown, res: unknown) => void;
  resolve?: (res: unknown) => void;
  reject?: (err: unknown) => void;
}

export class Run {
  readonly id: number;
  readonly startedAt = Date.now();
  outbox: Outbox = emptyOutbox();
  logCount = 0;
  logBytes = 0;
  testCount = 0;
  pendingTests = 0;
  readonly timers = new Map<number, TimerEntry>();
  timerSeq = 0;
  readonly sends = new Map<number, SendEntry>();
  sendCount = 0;
  mainDone = false;
  /** Set by an uncaught error, an output flood or skipRequest: nothing more is waited for. */
  ended = false;
  skipRequest = false;
  nextRequest: { value: string | null } | undefined;
  visualizer: { template: string; data: unknown } | undefined;
  finalised = false;

  constructor(readonly input: IsolateInput) {
    this.id = input.runId;
  }

  get limits() {
    return this.input.limits;
  }

  at(): number {
    return Date.now() - this.startedAt;
  }

  fail(error: RawError): void {
    if (!this.outbox.error && !this.ended) this.outbox.error = error;
    this.ended = true;
  }

  /** The limit message once the output limit was hit: every later log or test throws it again. */
  flooded: string | undefined;

  flood(message: string): OutputLimitError {
    if (!this.flooded) {
      this.flooded = message;
      this.fail({ name: "OutputLimitError", message, kind: "output" });
    }
    return new OutputLimitError(this.flooded);
  }

  get idle(): boolean {
    return this.ended || (this.mainDone && this.pendingTests === 0 && this.timers.size === 0 && this.sends.size === 0);
  }

  take(): Outbox {
    const out = this.outbox;
    this.outbox = emptyOutbox();
    return out;
  }
}

function emptyOutbox(): Outbox {
  return { logs: [], tests: [], timers: [], cancels: [], sends: [], error: null };
}
