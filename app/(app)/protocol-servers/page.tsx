import type { Metadata } from "next";
import { ProtocolServersPage } from "./_components/protocol-servers-page";

export const metadata: Metadata = { title: "Protocol servers" };

export default function Page() {
  return <ProtocolServersPage />;
}
