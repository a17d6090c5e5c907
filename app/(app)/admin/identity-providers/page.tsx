import type { Metadata } from "next";
import { ProvidersPage } from "./_components/providers-page";

export const metadata: Metadata = { title: "Identity providers" };

export default function Page() {
  return <ProvidersPage />;
}
