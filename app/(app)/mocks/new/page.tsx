import type { Metadata } from "next";
import { NewMockPage } from "../_components/editor/mock-editor-page";

export const metadata: Metadata = { title: "New mock" };

export default function Page() {
  return <NewMockPage />;
}
