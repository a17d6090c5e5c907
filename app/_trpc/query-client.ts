import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";

/** Client errors (4xx) are answers, not hiccups: retrying them only delays the message. */
function shouldRetry(failureCount: number, error: unknown) {
  if (error instanceof TRPCClientError) {
    const status = (error.data as { httpStatus?: number } | undefined)?.httpStatus ?? 0;
    if (status >= 400 && status < 500) return false;
  }
  return failureCount < 2;
}

/** A session that ends while a page is open (expired, password changed elsewhere) sends the user to log in again. */
function onUnauthorized(error: unknown) {
  if (typeof window === "undefined" || !(error instanceof TRPCClientError)) return;
  if ((error.data as { code?: string } | undefined)?.code !== "unauthorized") return;
  if (!window.location.pathname.match(/^\/(settings|admin)(\/|$)/)) return;
  const next = window.location.pathname + window.location.search;
  // Outside React (no router here), and a full load drops the ended session's cached data.
  // eslint-disable-next-line @next/next/no-location-assign-relative-destination
  window.location.assign(`/login?next=${encodeURIComponent(next)}&error=${encodeURIComponent(error.message)}`);
}

export function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: onUnauthorized }),
    mutationCache: new MutationCache({ onError: onUnauthorized }),
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}
