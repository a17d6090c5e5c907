// /tester/runs/<id>: one test run's results.
import type { Metadata } from "next";
import { RunPage } from "./_components/run-page";

export const metadata: Metadata = { title: "Test run" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <RunPage id={decodeURIComponent(id)} />;
}
