// /tester/runs: the namespace's test run history.
import type { Metadata } from "next";
import { RunsPage } from "./_components/runs-page";

export const metadata: Metadata = { title: "Test runs" };

export default function Page() {
  return <RunsPage />;
}
