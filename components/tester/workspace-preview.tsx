"use client";
// Every API tester building block composed into a workspace with sample data
// and local state: sidebar (environment, collection tree), open-request tabs,
// the request editor, the response, the runner's results and the environment
// editor. The tester page's author replaces the local state with tRPC data;
// sending here is simulated (a sample response after a short wait).
import { ListChecks, SendHorizontal } from "lucide-react";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import type { RequestDefinition, Variable } from "@/server/contracts/tester-request";
import { CollectionTree } from "./collection-tree";
import { type TreeCollection } from "./collection-tree-model";
import { EnvironmentPicker } from "./environment-picker";
import { RequestEditor } from "./request-editor";
import { type RequestTab, RequestTabs } from "./request-tabs";
import { ResponseViewer } from "./response-viewer";
import { RunResults } from "./run-results";
import { unknownVariables } from "./template-variables";
import { VariablesTable } from "./variables-table";
import { SAMPLE_COLLECTIONS, SAMPLE_ENVIRONMENTS, SAMPLE_PRE_VERDICT, SAMPLE_RESPONSE, SAMPLE_RUN, SAMPLE_SENT, SAMPLE_TEST_VERDICT, sampleDefinition } from "./workspace-sample-data";

type Sent = { state: "idle" } | { state: "sending" } | { state: "done" } | { state: "failed"; error: { code: string; message: string } };

const subscribe = () => () => {};

export function WorkspacePreview() {
  // Sample dates and the editor are rendered in the browser only (locale and time zone).
  const client = useSyncExternalStore(subscribe, () => true, () => false);
  const [collections, setCollections] = useState<TreeCollection[]>(SAMPLE_COLLECTIONS);
  const [environments, setEnvironments] = useState(SAMPLE_ENVIRONMENTS);
  const [environmentId, setEnvironmentId] = useState<string | null>("env-local");
  const [managing, setManaging] = useState(false);
  const [definitions, setDefinitions] = useState<Record<string, RequestDefinition>>(() => ({ "req-create": sampleDefinition("req-create"), "req-list": sampleDefinition("req-list") }));
  const [dirty, setDirty] = useState<ReadonlySet<string>>(new Set(["req-list"]));
  const [openIds, setOpenIds] = useState<string[]>(["req-create", "req-list"]);
  const [activeId, setActiveId] = useState<string | null>("req-create");
  const [sent, setSent] = useState<Sent>({ state: "done" });
  const [view, setView] = useState<"request" | "runner">("request");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  const environment = environments.find((e) => e.id === environmentId);
  const variables = Object.fromEntries((environment?.variables ?? []).filter((v) => v.enabled).map((v) => [v.key, v.value]));
  const summaries = collections.flatMap((c) => c.requests);
  const tabs: RequestTab[] = openIds.flatMap((id) => {
    const s = summaries.find((r) => r.id === id);
    return s ? [{ id, name: s.name, method: definitions[id]?.method ?? s.method, kind: s.kind, dirty: dirty.has(id) }] : [];
  });
  const active = activeId ? definitions[activeId] : undefined;

  const open = (id: string) => {
    setDefinitions((d) => (d[id] ? d : { ...d, [id]: sampleDefinition(id) }));
    setOpenIds((ids) => (ids.includes(id) ? ids : [...ids, id]));
    setActiveId(id);
    setView("request");
  };
  const close = (id: string) => {
    const rest = openIds.filter((x) => x !== id);
    setOpenIds(rest);
    if (activeId === id) setActiveId(rest[rest.length - 1] ?? null);
  };
  const send = () => {
    if (!active) return;
    setSent({ state: "sending" });
    timer.current = setTimeout(() => {
      // A URL with an unknown variable fails the way the executor reports it, to show the error state.
      const unknown = unknownVariables(active.url, variables);
      setSent(unknown.length ? { state: "failed", error: { code: "invalid_url", message: `The URL still holds {{${unknown[0]}}} after substitution` } } : { state: "done" });
    }, 700);
  };
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    setSent({ state: "failed", error: { code: "aborted", message: "You cancelled the request." } });
  };
  const updateCollection = (collectionId: string, change: (c: TreeCollection) => TreeCollection) => setCollections((cs) => cs.map((c) => (c.id === collectionId ? change(c) : c)));

  if (!client) return <Skeleton className="h-[40rem] w-full" />;
  return (
    <div className="grid min-h-[44rem] overflow-hidden rounded-xl border bg-card md:grid-cols-[18rem_1fr]">
      <aside aria-label="Collections and environment" className="flex min-h-0 flex-col gap-3 border-b bg-sidebar p-3 md:border-r md:border-b-0">
        <EnvironmentPicker environments={environments} value={environmentId} onChange={setEnvironmentId} onManage={() => setManaging(true)} />
        <CollectionTree
          collections={collections}
          activeRequestId={activeId}
          onOpenRequest={open}
          onReorder={(collectionId, folderId, ids) => updateCollection(collectionId, (c) => ({ ...c, requests: c.requests.map((r) => (r.folderId === folderId && ids.includes(r.id) ? { ...r, sortIndex: ids.indexOf(r.id) } : r)) }))}
          onMove={(ids, collectionId, folderId) =>
            setCollections((cs) => {
              const moving = cs.flatMap((c) => c.requests).filter((r) => ids.includes(r.id));
              return cs.map((c) => ({ ...c, requests: [...c.requests.filter((r) => !ids.includes(r.id)), ...(c.id === collectionId ? moving.map((r) => ({ ...r, folderId, sortIndex: 1_000 })) : [])] }));
            })
          }
          onCreateCollection={() => toast.info("The page opens the new-collection dialog here")}
          onImport={() => toast.info("The page opens the import dialog here")}
          onCreateRequest={() => toast.info("New request")}
          onCreateFolder={() => toast.info("New folder")}
          onRename={(node, name) => (node.type === "request" ? updateCollection(node.collectionId, (c) => ({ ...c, requests: c.requests.map((r) => (r.id === node.id ? { ...r, name } : r)) })) : toast.info(`Rename ${node.type} to “${name}”`))}
          onDuplicate={(node) => toast.info(`Duplicate “${node.name}”`)}
          onDelete={(node) => (node.type === "request" ? (updateCollection(node.collectionId, (c) => ({ ...c, requests: c.requests.filter((r) => r.id !== node.id) })), close(node.id)) : toast.info(`Delete ${node.type} “${node.name}”`))}
          onRun={() => setView("runner")}
        />
      </aside>
      <main className="flex min-w-0 flex-col">
        <div className="flex items-end gap-2 border-b bg-muted/30 pr-2">
          <RequestTabs tabs={tabs} activeId={view === "request" ? activeId : null} onSelect={(id) => (setActiveId(id), setView("request"))} onClose={close} onNew={() => toast.info("New request")} panelId="tester-request-panel" className="min-w-0 flex-1 border-b-0" />
          <Button type="button" variant={view === "runner" ? "secondary" : "ghost"} size="sm" className="mb-0.5" onClick={() => setView(view === "runner" ? "request" : "runner")} aria-pressed={view === "runner"}>
            <ListChecks aria-hidden /> Runner
          </Button>
        </div>
        {view === "runner" ? (
          <div className="p-4">
            <RunResults run={SAMPLE_RUN} exportHrefs={{ json: "data:application/json,{}" }} onExport={(f) => toast.info(`Export ${f}`)} />
          </div>
        ) : active && activeId ? (
          <div id="tester-request-panel" className="flex min-w-0 flex-col gap-4 p-4">
            <RequestEditor
              value={active}
              onChange={(next) => {
                setDefinitions((d) => ({ ...d, [activeId]: next }));
                setDirty((s) => new Set(s).add(activeId));
              }}
              variables={variables}
              onSend={send}
              sending={sent.state === "sending"}
              onCancel={cancel}
              inheritedAuth="collection “Shop API” (Bearer token)"
              editorHeight={220}
            />
            <div className="border-t pt-3">
              <ResponseViewer
                sending={sent.state === "sending"}
                onCancel={cancel}
                response={sent.state === "done" ? SAMPLE_RESPONSE : null}
                request={SAMPLE_SENT}
                error={sent.state === "failed" ? sent.error : null}
                preRequest={sent.state === "done" ? SAMPLE_PRE_VERDICT : null}
                tests={sent.state === "done" ? SAMPLE_TEST_VERDICT : null}
                onSaveAsMock={() => toast.success("The page creates a mock from this response")}
                bodyHeight={260}
              />
            </div>
          </div>
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-2 p-10 text-center text-sm text-muted-foreground">
            <SendHorizontal className="size-6" aria-hidden />
            Open a request from a collection, or start a new one.
          </div>
        )}
      </main>
      <Dialog open={managing} onOpenChange={setManaging}>
        <DialogContent className="max-w-3xl">
          <DialogHeader>
            <DialogTitle>Environment “{environment?.name ?? "none"}”</DialogTitle>
            <DialogDescription>Variables of this environment; the active one fills {"{{name}}"} placeholders when a request is sent.</DialogDescription>
          </DialogHeader>
          {environment ? (
            <VariablesTable label="Environment variables" variables={environment.variables} onChange={(vars: Variable[]) => setEnvironments((es) => es.map((e) => (e.id === environment.id ? { ...e, variables: vars } : e)))} />
          ) : (
            <p className="text-sm text-muted-foreground">Pick an environment first.</p>
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}
