import type { Metadata } from "next";
import { TesterWorkspace } from "./_components/tester-workspace";

export const metadata: Metadata = { title: "API tester" };

export default function Page() {
  return <TesterWorkspace />;
}
