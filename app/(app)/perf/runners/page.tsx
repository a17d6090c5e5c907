// /perf/runners: runner agents, their tasks and how to start one.
import type { Metadata } from "next";
import { RunnersPage } from "../_components/runners-page";

export const metadata: Metadata = { title: "Runner agents" };

export default function Page() {
  return <RunnersPage />;
}
