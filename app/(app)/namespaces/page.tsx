import type { Metadata } from "next";
import { NamespacePage } from "./_components/namespace-page";

export const metadata: Metadata = { title: "Namespace settings" };

export default function Page() {
  return <NamespacePage />;
}
