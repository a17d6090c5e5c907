"use client";
// /perf/configs/<id>: one load test, in three tabs kept in the URL (?tab=):
// its script and options (the editor), its runs, and the trend of its
// numbers over those runs.
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, CalendarClock } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useNamespace } from "../../_components/namespace-context";
import { ConfigEditor } from "./config-editor";
import { perfPaths } from "./paths";
import { PerfScheduleDialog } from "./perf-schedule-dialog";
import { ResultsTable } from "./results-table";
import { TrendPanel } from "./trend-panel";

const TABS = ["script", "runs", "trend"] as const;
type Tab = (typeof TABS)[number];

export function ConfigPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [scheduling, setScheduling] = useState(false);
  const config = useQuery(trpc.perf.configs.get.queryOptions({ namespace, id }, { enabled: !!namespace }));
  const tab: Tab = (TABS as readonly string[]).includes(params.get("tab") ?? "") ? (params.get("tab") as Tab) : "script";
  const setTab = (next: string) => {
    const q = new URLSearchParams(params.toString());
    if (next === "script") q.delete("tab");
    else q.set("tab", next);
    router.replace(`${pathname}?${q}`, { scroll: false });
  };

  const back = (
    <Link href={hrefWithNs(perfPaths.home)} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden /> Load tests
    </Link>
  );
  if (config.error)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <PageHeader title="Load test" />
        <ApiErrorAlert error={config.error} title="The load test could not be loaded" />
      </div>
    );
  if (!config.data)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <PageHeader title="Load test" />
        <SkeletonRows rows={8} label="Loading the load test" />
      </div>
    );
  const c = config.data;
  return (
    <div className="flex flex-col gap-4">
      {back}
      <PageHeader
        title={c.name}
        description={c.description || undefined}
        actions={
          <Button variant="outline" onClick={() => setScheduling(true)}>
            <CalendarClock aria-hidden /> Schedule…
          </Button>
        }
      />
      <PerfScheduleDialog open={scheduling} onOpenChange={setScheduling} namespace={namespace} editing={null} configId={c.id} />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList className="w-auto max-w-md">
          <TabsTrigger value="script">Script &amp; options</TabsTrigger>
          <TabsTrigger value="runs">Runs</TabsTrigger>
          <TabsTrigger value="trend">Trend</TabsTrigger>
        </TabsList>
        {/* The editor stays mounted on the other tabs: unsaved edits survive a look at the runs. */}
        <TabsContent value="script" forceMount className="data-[state=inactive]:hidden">
          <ConfigEditor key={c.updatedAt} config={c} />
        </TabsContent>
        <TabsContent value="runs">
          <ResultsTable configId={c.id} label={`Runs of ${c.name}`} />
        </TabsContent>
        <TabsContent value="trend">
          <TrendPanel configId={c.id} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
