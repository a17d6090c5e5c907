// The host's side of a VU's channel (isolate/channel.ts): writes an answer
// into the shared buffer and wakes the VU's thread, or tells it the run
// stopped. An answer too big for the buffer waits here until the VU takes it.
import { ACTIVE, CHANNEL_BYTES, HEADER_BYTES, KIND, LENGTH, STATE, STOP } from "./isolate/channel";

export class ChannelHost {
  readonly buffer = new SharedArrayBuffer(CHANNEL_BYTES);
  readonly #header = new Int32Array(this.buffer, 0, HEADER_BYTES / 4);
  readonly #bytes = Buffer.from(this.buffer);
  #overflow: string | undefined;

  constructor() {
    this.#header[ACTIVE] = 1;
  }

  answer(text: string, isError = false): void {
    const header = this.#header;
    if (HEADER_BYTES + text.length * 2 <= CHANNEL_BYTES) {
      this.#bytes.write(text, HEADER_BYTES, "utf16le");
      header[LENGTH] = text.length;
    } else {
      this.#overflow = text;
      header[LENGTH] = -1;
    }
    header[KIND] = isError ? 1 : 0;
    Atomics.store(header, STATE, 1);
    Atomics.notify(header, STATE);
  }

  /** The answer that did not fit, once. */
  take(): string {
    const text = this.#overflow ?? "";
    this.#overflow = undefined;
    return text;
  }

  /** A lease goes on (true) or ends after the current iteration (false). */
  setActive(active: boolean): void {
    Atomics.store(this.#header, ACTIVE, active ? 1 : 0);
  }

  /** Ends the VU's sleep now and any later one at once. */
  stop(): void {
    Atomics.store(this.#header, STOP, 1);
    Atomics.notify(this.#header, STOP);
  }
}
