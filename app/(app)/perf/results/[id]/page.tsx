// /perf/results/<id>: one load run, live while it runs, then its summary.
import type { Metadata } from "next";
import { ResultPage } from "../../_components/result-page";

export const metadata: Metadata = { title: "Load run" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ResultPage id={decodeURIComponent(id)} />;
}
