import type { Metadata } from "next";
import { MocksPage } from "./_components/mocks-page";

export const metadata: Metadata = { title: "Mocks" };

export default function Page() {
  return <MocksPage />;
}
