// /perf: saved load tests and their recent runs.
import type { Metadata } from "next";
import { PerfHome } from "./_components/perf-home";

export const metadata: Metadata = { title: "Load tests" };

export default function Page() {
  return <PerfHome />;
}
