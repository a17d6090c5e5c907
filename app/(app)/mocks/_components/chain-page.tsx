"use client";
import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { useNamespace } from "../../_components/namespace-context";
import { ChainPanel } from "./chain-panel";

/** /mocks/chains/<id>: the chain's mocks and store, and "Delete chain". */
export function ChainPage({ chainId }: { chainId: string }) {
  const { current, hrefWithNs } = useNamespace();
  return (
    <>
      <PageHeader
        title={`Chain ${chainId}`}
        description={<>Mocks of namespace {current?.name ?? "…"} whose chain id is <code className="font-mono text-xs">{chainId}</code>, in creation order.</>}
        actions={
          <Button variant="outline" asChild>
            <Link href={hrefWithNs("/mocks")}>
              <ChevronLeft aria-hidden /> All mocks
            </Link>
          </Button>
        }
      />
      <ChainPanel chainId={chainId} />
    </>
  );
}
