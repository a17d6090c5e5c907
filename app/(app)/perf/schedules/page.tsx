// /perf/schedules: cron schedules of saved load tests.
import type { Metadata } from "next";
import { PerfSchedulesPage } from "../_components/perf-schedules-page";

export const metadata: Metadata = { title: "Load schedules" };

export default function Page() {
  return <PerfSchedulesPage />;
}
