import type { Metadata } from "next";
import { BrokersPage } from "./_components/brokers-page";

export const metadata: Metadata = { title: "Brokers" };

export default function Page() {
  return <BrokersPage />;
}
