// The VU isolate's side of its channel to the host: a SharedArrayBuffer both
// threads see. A call that must wait for the host's I/O posts its request
// (an ignored, fire-and-forget host call) and blocks this isolate's thread in
// Atomics.wait until the host writes the answer into the buffer; one wake-up
// of this thread per call, where isolated-vm's applySyncPromise costs two,
// and it works when the host is a worker thread (applySyncPromise keeps a
// process-wide handle to the first thread's V8 and crashes in a second one).
// sleep() waits on the same buffer, so the host can cut it short when the
// run stops, and the loop reads there whether it may start another iteration
// of its lease without asking (see K6Vu.lease). The host's side is in
// ../channel-host.ts.

/** Int32 slots of the header. */
export const STATE = 0; // 0: waiting for the host; 1: an answer is in the buffer
export const LENGTH = 1; // the answer's length in UTF-16 code units; -1: too big, ask for it with take()
export const STOP = 2; // 1 once the run stops: sleeps end and do not start
export const KIND = 3; // 0: the answer is the result; 1: it is an error message
export const ACTIVE = 4; // 1 while the VU may go on with its lease; 0: end it after the current iteration (ramping down)
export const HEADER_BYTES = 32;
export const CHANNEL_BYTES = 64 * 1024;

interface PostRef {
  applyIgnored(self: undefined, args: [string]): void;
}

interface TakeRef {
  applySync(self: undefined, args: []): string;
}

export function openChannel(buffer: SharedArrayBuffer, take: TakeRef) {
  const header = new Int32Array(buffer, 0, HEADER_BYTES / 4);
  const chars = new Uint16Array(buffer, HEADER_BYTES);
  const fromCharCode = String.fromCharCode;

  // Sixteen code units per call: about three times faster here than String.fromCharCode.apply on the typed array.
  function read(): string {
    const n = header[LENGTH];
    if (n < 0) return take.applySync(undefined, []);
    const c = chars;
    let s = "";
    let i = 0;
    for (; i + 16 <= n; i += 16) s += fromCharCode(c[i], c[i + 1], c[i + 2], c[i + 3], c[i + 4], c[i + 5], c[i + 6], c[i + 7], c[i + 8], c[i + 9], c[i + 10], c[i + 11], c[i + 12], c[i + 13], c[i + 14], c[i + 15]);
    for (; i < n; i++) s += fromCharCode(c[i]);
    return s;
  }

  return {
    /** Sends `payload` to the host function `ref` and waits for its answer; the host's error is thrown here. */
    call(ref: PostRef, payload: string): string {
      Atomics.store(header, STATE, 0);
      ref.applyIgnored(undefined, [payload]);
      while (Atomics.load(header, STATE) === 0) Atomics.wait(header, STATE, 0);
      const answer = read();
      if (header[KIND] === 1) throw new Error(answer);
      return answer;
    },
    sleep(ms: number): void {
      if (Atomics.load(header, STOP) !== 0) return;
      Atomics.wait(header, STOP, 0, ms);
    },
    /** Whether a lease may start another iteration: the run goes on, the VU is active and `until` (epoch ms, 0: none) is ahead. */
    mayContinue(until: number): boolean {
      return Atomics.load(header, STOP) === 0 && Atomics.load(header, ACTIVE) === 1 && (until === 0 || Date.now() < until);
    },
  };
}
