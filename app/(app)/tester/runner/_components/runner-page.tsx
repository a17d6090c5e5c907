"use client";
// The collection runner: pick a collection (?collection=<id> preselects it),
// an environment (the active one by default), iterations, delay, bail, a data
// file and the requests to send; Run streams the run's events into the
// results table as each request finishes, Cancel stops it on the server.
// Once it ends: the report downloads and a link to the run's own page.
import { useQuery } from "@tanstack/react-query";
import { ExternalLink, FolderOpen, History, Play, Square } from "lucide-react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { RunResults } from "@/components/tester/run-results";
import { useNamespace } from "../../../_components/namespace-context";
import { exportHrefs, runPath } from "../../_components/run-links";
import { useCancelRun } from "../../_components/use-cancel-run";
import type { DataFile } from "./data-file-field";
import { RequestPicker, selectedRequestIds } from "./request-picker";
import { buildRunRequest, DEFAULT_SETTINGS, type RunSettings, type SettingsProblems } from "./run-request";
import { RunSettingsForm } from "./run-settings-form";
import { useCollectionRun } from "./use-collection-run";

export function RunnerPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const collectionId = searchParams.get("collection");

  const collections = useQuery(trpc.apiTester.collections.list.queryOptions({ namespace, limit: 500 }, { enabled: !!namespace }));
  const collection = useQuery(trpc.apiTester.collections.get.queryOptions({ namespace, id: collectionId ?? "" }, { enabled: !!namespace && !!collectionId }));
  const environments = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const active = useQuery(trpc.apiTester.environments.active.queryOptions({ namespace }, { enabled: !!namespace }));

  const [settings, setSettings] = useState<RunSettings>(DEFAULT_SETTINGS);
  // Until the user picks one, the environment is the active one.
  const [environmentChosen, setEnvironmentChosen] = useState(false);
  const environmentId = environmentChosen ? settings.environmentId : (active.data?.environment?.id ?? null);
  const [excluded, setExcluded] = useState<{ collectionId: string | null; ids: Set<string> }>({ collectionId: null, ids: new Set() });
  const excludedIds = useMemo(() => (excluded.collectionId === collectionId ? excluded.ids : new Set<string>()), [excluded, collectionId]);
  const [dataFile, setDataFile] = useState<DataFile | null>(null);
  const [dataReadError, setDataReadError] = useState<string | null>(null);
  const [problems, setProblems] = useState<SettingsProblems>({});

  const { state, start } = useCollectionRun(namespace);
  const { cancel, pendingId: cancelling } = useCancelRun(namespace);
  const running = state.starting || (state.run !== null && !state.ended && !state.lostConnection);

  const pickCollection = (id: string) => {
    const params = new URLSearchParams(searchParams.toString());
    params.set("collection", id);
    router.replace(`${pathname}?${params}`, { scroll: false });
    setProblems({});
  };

  function run() {
    if (!collectionId || !collection.data) return;
    const requestIds = selectedRequestIds(collection.data, excludedIds);
    const built = buildRunRequest(
      { ...settings, environmentId },
      { data: dataFile?.text, dataUsable: dataFile?.preview.ok ?? true, requestIds, requestCount: collection.data.requests.length },
    );
    if (!built.ok) {
      setProblems(built.problems);
      return;
    }
    setProblems({});
    void start(collectionId, built.request);
  }

  const noCollections = collections.data && collections.data.collections.length === 0 && !collectionId;
  const ready = !!collection.data && !running;

  return (
    <>
      <PageHeader
        title="Collection runner"
        description="Run a collection's requests with their tests: once, several times, or once per row of a data file. Results appear as each request finishes; every run is kept in the run history."
        actions={
          <Button variant="outline" asChild>
            <Link href={hrefWithNs("/tester/runs")}>
              <History aria-hidden /> Run history
            </Link>
          </Button>
        }
      />
      {collections.error ? <ApiErrorAlert error={collections.error} title="The collections could not be loaded" /> : null}
      {!namespace || collections.isLoading ? (
        <SkeletonRows rows={4} label="Loading the collections" />
      ) : noCollections ? (
        <EmptyState
          icon={FolderOpen}
          title="No collections to run"
          action={
            <Button variant="outline" asChild>
              <Link href={hrefWithNs("/tester")}>Open the workspace</Link>
            </Button>
          }
        >
          The runner sends the saved requests of a collection. Create a collection in the workspace (or import a Postman collection there), save a few requests with tests into it, then come back to run it.
        </EmptyState>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Run settings</CardTitle>
          </CardHeader>
          <CardContent>
            <form
              aria-label="Run settings"
              noValidate
              className="flex flex-col gap-6"
              onSubmit={(e) => {
                e.preventDefault();
                run();
              }}
            >
              <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
                <RunSettingsForm
                  // Collections shared from another Space cannot run here (403): not offered.
                  collections={(collections.data?.collections ?? []).filter((c) => !c.sharedFrom)}
                  collectionId={collectionId}
                  onCollection={pickCollection}
                  environments={environments.data?.environments ?? []}
                  environmentId={environmentId}
                  onEnvironment={(id) => {
                    setEnvironmentChosen(true);
                    setSettings((s) => ({ ...s, environmentId: id }));
                  }}
                  onManageEnvironments={() => router.push(hrefWithNs("/tester/environments"))}
                  settings={settings}
                  onSettings={(patch) => setSettings((s) => ({ ...s, ...patch }))}
                  dataFile={dataFile}
                  onDataFile={(f) => {
                    setDataFile(f);
                    setDataReadError(null);
                  }}
                  dataReadError={dataReadError}
                  onDataReadError={setDataReadError}
                  problems={problems}
                  disabled={running}
                />
                <div className="flex min-w-0 flex-col gap-2">
                  {!collectionId ? (
                    <p className="rounded-md border border-dashed px-3 py-6 text-center text-sm text-muted-foreground">Pick a collection to choose which of its requests to run.</p>
                  ) : collection.error ? (
                    <ApiErrorAlert error={collection.error} title="The collection could not be opened" />
                  ) : !collection.data ? (
                    <SkeletonRows rows={5} label="Loading the collection's requests" />
                  ) : (
                    <RequestPicker collection={collection.data} excluded={excludedIds} onChange={(ids) => setExcluded({ collectionId, ids })} disabled={running} />
                  )}
                </div>
              </div>
              <div className="flex flex-wrap items-center gap-2 border-t pt-4">
                <Button type="submit" disabled={!ready} pending={running}>
                  {running ? null : <Play aria-hidden />} {running ? "Running…" : "Run"}
                </Button>
                {running && state.run ? (
                  <Button type="button" variant="outline" pending={cancelling === state.run.id} onClick={() => state.run && cancel(state.run.id)}>
                    <Square aria-hidden /> Cancel run
                  </Button>
                ) : null}
                {state.run && !running ? (
                  <Button variant="link" asChild>
                    <Link href={hrefWithNs(runPath(state.run.id))}>
                      <ExternalLink aria-hidden /> Open the run&apos;s page
                    </Link>
                  </Button>
                ) : null}
                {state.current && running ? (
                  <span className="text-xs text-muted-foreground" aria-live="polite">
                    Sending <span className="font-medium text-foreground">{state.current.name}</span>
                    {state.run && state.run.iterations > 1 ? ` (iteration ${state.current.iteration + 1} of ${state.run.iterations})` : null}
                  </span>
                ) : null}
              </div>
            </form>
          </CardContent>
        </Card>
      )}
      <ApiErrorAlert error={state.startError} title="The run could not start" />
      {state.lostConnection && state.run ? (
        <Alert variant="warning" title="The live results stopped">
          The connection ended before the run finished; the run may still be going on the server.{" "}
          <Link className="font-medium underline underline-offset-4" href={hrefWithNs(runPath(state.run.id))}>
            Follow it on its page
          </Link>
          .
        </Alert>
      ) : null}
      {state.error && !state.run ? <Alert variant="error" title="The run stopped">{state.error.message}</Alert> : null}
      {state.run ? (
        <RunResults
          run={state.run}
          progress={state.progress}
          exportHrefs={state.ended ? exportHrefs(state.run.id, namespace) : undefined}
          onCancel={running ? () => state.run && cancel(state.run.id) : undefined}
        />
      ) : null}
    </>
  );
}
