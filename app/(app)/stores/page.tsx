import type { Metadata } from "next";
import { StoresPage } from "./_components/stores-page";

export const metadata: Metadata = { title: "Stores" };

export default function Page() {
  return <StoresPage />;
}
