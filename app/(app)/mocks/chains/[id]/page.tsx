import type { Metadata } from "next";
import { ChainPage } from "../../_components/chain-page";

export const metadata: Metadata = { title: "Chain" };

/** /mocks/chains/<chain id>?ns=<namespace>: a bookmarkable view of one chain. */
export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ChainPage chainId={decodeURIComponent(id)} />;
}
