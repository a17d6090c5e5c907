// /tester/tests: standalone tests (saved runs over collections).
import type { Metadata } from "next";
import { TestsPage } from "./_components/tests-page";

export const metadata: Metadata = { title: "Tests" };

export default function Page() {
  return <TestsPage />;
}
