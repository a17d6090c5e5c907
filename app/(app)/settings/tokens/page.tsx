import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { ApiTokensSection } from "./_components/api-tokens-section";
import { DelegatedSection } from "./_components/delegated-section";

export const metadata: Metadata = { title: "API tokens" };

export default function TokensPage() {
  return (
    <>
      <PageHeader
        title="API tokens"
        description={
          <>
            Tokens let scripts, CI jobs and SDKs call the API as you. Send one in the <code className="font-mono text-xs">X-API-Key</code> header or as{" "}
            <code className="font-mono text-xs">Authorization: Bearer</code>.
          </>
        }
      />
      <ApiTokensSection />
      <DelegatedSection />
    </>
  );
}
