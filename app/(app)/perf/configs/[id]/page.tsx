// /perf/configs/<id>: a load test's script and options, runs and trend.
import type { Metadata } from "next";
import { ConfigPage } from "../../_components/config-page";

export const metadata: Metadata = { title: "Load test" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ConfigPage id={decodeURIComponent(id)} />;
}
