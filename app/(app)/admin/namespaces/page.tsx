import type { Metadata } from "next";
import { NamespacesPage } from "./_components/namespaces-page";

export const metadata: Metadata = { title: "Namespaces" };

export default function Page() {
  return <NamespacesPage />;
}
