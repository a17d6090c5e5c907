// The runner agent's HTTP client of the polymock server: the agent has no
// database credentials, only its integration token, and every call is one
// of /api/v1/runners/*. An answer outside 2xx becomes a ServerAnswerError
// carrying the status, so the agent can tell a revoked token (401) from a
// server that is away for a moment (network error, 5xx).
import type { ClaimedPart, ClaimInput, PartFinishInput, PartProgressInput, RegisterRunnerInput, RunnerHeartbeatInput } from "@/server/contracts/runner-endpoints";

export class ServerAnswerError extends Error {
  constructor(
    message: string,
    /** 0: the server could not be reached. */
    readonly status: number,
  ) {
    super(message);
    this.name = "ServerAnswerError";
  }
}

export interface Registered {
  id: string;
  name: string;
  namespace: string | null;
  heartbeatIntervalMs: number;
  claimWaitMaxSeconds: number;
}

const CALL_TIMEOUT_MS = 30_000;

export class RunnerClient {
  readonly server: string;

  constructor(
    server: string,
    private readonly token: string,
  ) {
    this.server = server.replace(/\/+$/, "");
  }

  private async call<T>(path: string, body: unknown, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? CALL_TIMEOUT_MS);
    const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
    let res: Response;
    try {
      res = await fetch(`${this.server}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause;
      throw new ServerAnswerError(`cannot reach ${this.server}: ${cause?.message ?? (err as Error).message}`, 0);
    }
    const text = await res.text().catch(() => "");
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {}
    if (!res.ok) {
      const message = (json as { error?: string } | null)?.error ?? text.slice(0, 300);
      throw new ServerAnswerError(`${path}: ${res.status} ${message}`, res.status);
    }
    return json as T;
  }

  register(input: Omit<RegisterRunnerInput, "labels" | "hostname" | "version"> & Partial<RegisterRunnerInput>): Promise<Registered> {
    return this.call("/api/v1/runners/register", input);
  }

  heartbeat(runnerId: string, input: RunnerHeartbeatInput): Promise<{ ok: true }> {
    return this.call(`/api/v1/runners/${runnerId}/heartbeat`, input);
  }

  /** Long poll: the server answers when a part is there or after `waitSeconds`. */
  claim(runnerId: string, input: ClaimInput, signal?: AbortSignal): Promise<{ part: ClaimedPart | null }> {
    return this.call(`/api/v1/runners/${runnerId}/claim`, input, { timeoutMs: (input.waitSeconds + 30) * 1000, signal });
  }

  progress(runnerId: string, partId: string, input: PartProgressInput): Promise<{ stop: boolean }> {
    return this.call(`/api/v1/runners/${runnerId}/parts/${partId}/progress`, input);
  }

  finish(runnerId: string, partId: string, input: PartFinishInput): Promise<{ ok: true }> {
    return this.call(`/api/v1/runners/${runnerId}/parts/${partId}/finish`, input, { timeoutMs: 120_000 });
  }
}
