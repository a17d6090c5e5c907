// /perf/compare?ids=a,b: load runs side by side with their deltas.
import type { Metadata } from "next";
import { ComparePage } from "../_components/compare-page";

export const metadata: Metadata = { title: "Compare runs" };

export default function Page() {
  return <ComparePage />;
}
