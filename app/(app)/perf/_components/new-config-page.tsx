"use client";
// /perf/new: the editor with the sample script; saving (or running) stores it
// and moves to its own page.
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { useNamespace } from "../../_components/namespace-context";
import { ConfigEditor } from "./config-editor";
import { perfPaths } from "./paths";

export function NewConfigPage() {
  const { hrefWithNs } = useNamespace();
  return (
    <div className="flex flex-col gap-4">
      <Link href={hrefWithNs(perfPaths.home)} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Load tests
      </Link>
      <PageHeader title="New load test" description="Write the k6 script on the left (completions for the k6 API as you type), set the load and thresholds on the right, then Save or Run." />
      <ConfigEditor config={null} />
    </div>
  );
}
