import type { Metadata } from "next";
import { ExistingMockPage } from "../_components/editor/mock-editor-page";

export const metadata: Metadata = { title: "Mock" };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExistingMockPage id={decodeURIComponent(id)} />;
}
