// /tester/environments: the API tester's environments and their variables.
import type { Metadata } from "next";
import { EnvironmentsPage } from "./_components/environments-page";

export const metadata: Metadata = { title: "Environments" };

export default function Page() {
  return <EnvironmentsPage />;
}
