// /tester/runner: the collection runner (settings, live results, reports).
import type { Metadata } from "next";
import { RunnerPage } from "./_components/runner-page";

export const metadata: Metadata = { title: "Collection runner" };

export default function Page() {
  return <RunnerPage />;
}
