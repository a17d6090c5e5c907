// /perf/new: a new load test, starting from the sample script.
import type { Metadata } from "next";
import { NewConfigPage } from "../_components/new-config-page";

export const metadata: Metadata = { title: "New load test" };

export default function Page() {
  return <NewConfigPage />;
}
