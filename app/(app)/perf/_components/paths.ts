// Addresses of the performance pages, in one place so links agree.
export const perfPaths = {
  home: "/perf",
  newConfig: "/perf/new",
  config: (id: string, tab?: "runs" | "trend") => `/perf/configs/${encodeURIComponent(id)}${tab ? `?tab=${tab}` : ""}`,
  result: (id: string) => `/perf/results/${encodeURIComponent(id)}`,
  compare: (ids: readonly string[]) => `/perf/compare?ids=${ids.map(encodeURIComponent).join(",")}`,
  schedules: "/perf/schedules",
  runners: "/perf/runners",
};
