"use client";
// Starts a collection run through the REST endpoint with `useSSE` (tRPC
// cannot stream) and follows it: the body is read with a stream reader, cut
// into events by the SSE parser, and applied to the live run at most once per
// animation frame. A refusal before the run exists (400 for a bad data file,
// 404, 403) comes back as the error envelope and is thrown as an ApiError for
// ApiErrorAlert. Leaving the page stops reading, not the run: a run is
// cancelled only by asking (testRuns.cancel), and it can be followed on its
// own page. A stream that ends without `finished` is said so, with that page.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { ApiError } from "@/components/lib/api-error";
import type { ExecuteCollectionInput } from "@/server/contracts/tester-execute-endpoints";
import { applyRunEvents, IDLE, type LiveRun, type RunContext } from "./live-run";
import { parseSseChunk, type SseEvent } from "./sse-parse";

/** What the runner sends; the hook adds useSSE. */
export type RunRequest = Omit<ExecuteCollectionInput, "useSSE" | "delayMs" | "bail" | "persistVariables"> & { delayMs: number; bail: boolean };

export interface CollectionRunState extends LiveRun {
  /** The request is on its way and no event has come yet. */
  starting: boolean;
  /** The run was refused before it started (error envelope), or the server could not be reached. */
  startError: unknown;
  /** The stream ended before `finished`: the run may go on without this page. */
  lostConnection: boolean;
}

const INITIAL: CollectionRunState = { ...IDLE, starting: false, startError: null, lostConnection: false };

async function envelopeError(res: Response): Promise<ApiError> {
  let env: { error?: string; code?: string; details?: unknown; request_id?: string } = {};
  try {
    env = (await res.json()) ?? {};
  } catch {}
  const fieldErrors: Record<string, string> = {};
  if (Array.isArray(env.details)) {
    for (const d of env.details as { field?: string; message?: string }[]) if (d?.field && !(d.field in fieldErrors)) fieldErrors[d.field] = d.message ?? "invalid";
  }
  return new ApiError(env.error ?? `The run could not start (${res.status})`, env.code ?? "internal", res.status, fieldErrors, env.request_id ?? res.headers.get("x-request-id"));
}

export function useCollectionRun(namespace: string | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [state, setState] = useState<CollectionRunState>(INITIAL);
  const reading = useRef<AbortController | null>(null);

  // Leaving the page stops reading the stream (the run itself goes on).
  useEffect(() => () => reading.current?.abort(), []);

  const start = useCallback(
    async (collectionId: string, request: RunRequest) => {
      reading.current?.abort();
      const controller = new AbortController();
      reading.current = controller;
      setState({ ...INITIAL, starting: true });
      const q = namespace ? `?${new URLSearchParams({ namespace })}` : "";
      let res: Response;
      try {
        res = await fetch(`/api/v1/api-tester/collections/${encodeURIComponent(collectionId)}/execute${q}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
          body: JSON.stringify({ ...request, useSSE: true }),
          credentials: "same-origin",
          signal: controller.signal,
        });
      } catch (err) {
        if (controller.signal.aborted) return;
        setState({ ...INITIAL, startError: err instanceof ApiError ? err : new ApiError("Could not reach the server; check the connection and try again", "network", 0, {}, null) });
        return;
      }
      if (!res.ok || !res.body) {
        const error = await envelopeError(res);
        if (!controller.signal.aborted) setState({ ...INITIAL, startError: error });
        return;
      }

      const ctx: RunContext = { namespace: namespace ?? "", collectionId, environmentId: request.environmentId || null, now: new Date().toISOString() };
      let queue: SseEvent[] = [];
      let frame = 0;
      const flush = () => {
        frame = 0;
        if (!queue.length || controller.signal.aborted) return;
        const events = queue;
        queue = [];
        setState((s) => ({ ...s, ...applyRunEvents(s, events, ctx), starting: false }));
      };
      const schedule = () => {
        if (!frame) frame = requestAnimationFrame(flush);
      };

      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let pending = "";
      let ended = false;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseSseChunk(pending, value);
          pending = parsed.pending;
          if (parsed.events.length) {
            queue.push(...parsed.events);
            if (parsed.events.some((e) => e.event === "finished" || e.event === "error")) ended = true;
            schedule();
          }
        }
      } catch {
        // Aborted by leaving the page, or the connection broke: handled below.
      }
      if (controller.signal.aborted) return;
      if (frame) cancelAnimationFrame(frame);
      flush();
      if (!ended) setState((s) => ({ ...s, starting: false, lostConnection: true }));
      // The run lists and the run's page show the new run.
      void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.pathKey() });
    },
    [namespace, queryClient, trpc],
  );

  const reset = useCallback(() => {
    reading.current?.abort();
    setState(INITIAL);
  }, []);

  return { state, start, reset };
}
