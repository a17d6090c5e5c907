// Addresses of a test run shared by the runner, the run history and a run's
// page: the run's own page and its report downloads (the export endpoint
// answers an attachment, so a plain link downloads it with the session cookie).
import type { ReportFormat } from "@/components/tester/run-results";

export function runPath(id: string): string {
  return `/tester/runs/${encodeURIComponent(id)}`;
}

export function exportHrefs(id: string, namespace: string | undefined): Record<ReportFormat, string> {
  const href = (format: ReportFormat) => {
    const q = new URLSearchParams({ format });
    if (namespace) q.set("namespace", namespace);
    return `/api/v1/api-tester/test-runs/${encodeURIComponent(id)}/export?${q}`;
  };
  return { junit: href("junit"), html: href("html"), json: href("json") };
}

/** Queued and running runs can still change (and be cancelled). */
export function isLive(status: string): boolean {
  return status === "queued" || status === "running";
}
