import type { Metadata } from "next";
import { TemplatesPage } from "./_components/templates-page";

export const metadata: Metadata = { title: "Templates and files" };

export default function Page() {
  return <TemplatesPage />;
}
