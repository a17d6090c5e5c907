"use client";
// The API tester's workspace: collections (tree with folders, drag to reorder)
// and history on the left, tabs of open requests with the request editor and
// the response below, the environment picker on top. Send (Ctrl+Enter) runs
// the request with its collection's, folders' and own scripts on the server;
// Ctrl+S saves. "Save response as mock" hands the response to the mock editor.
import { useMutation, useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { History, ListChecks, Plus, SendHorizontal } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { CollectionTree } from "@/components/tester/collection-tree";
import type { NodeRef, TreeCollection } from "@/components/tester/collection-tree-model";
import { EnvironmentPicker } from "@/components/tester/environment-picker";
import { RequestEditor } from "@/components/tester/request-editor";
import { RequestTabs } from "@/components/tester/request-tabs";
import { ResponseViewer } from "@/components/tester/response-viewer";
import { GenerateMocksDialog } from "@/components/tester/generate-mocks-dialog";
import { Button } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import type { RequestDefinition } from "@/server/contracts/tester-request";
import { useNamespace } from "../../_components/namespace-context";
import { CollectionLoadTest, type LoadTestTarget } from "./collection-load-test";
import { useProtocolHelpers } from "./use-protocol-helpers";
import { HistoryList } from "./history-list";
import { mockDraftFromResponse, stashMockDraft } from "./mock-from-response";
import { NameDialog } from "./name-dialog";
import { ShareCollectionDialog } from "./share-collection-dialog";
import { BLANK_REQUEST, isNew, useOpenRequests } from "./use-open-requests";

const subscribe = () => () => {};
type Naming = { kind: "collection" } | { kind: "folder"; collectionId: string; parentId: string | null } | { kind: "save"; tabId: string } | null;

const definitionOf = (r: RequestDefinition): RequestDefinition => ({
  kind: r.kind,
  method: r.method,
  url: r.url,
  headers: r.headers,
  params: r.params,
  body: r.body,
  auth: r.auth,
  ...(r.soap ? { soap: r.soap } : {}),
  settings: r.settings,
  scripts: r.scripts,
});

export function TesterWorkspace() {
  // The editors and dates render in the browser only.
  const client = useSyncExternalStore(subscribe, () => true, () => false);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const on = !!namespace;
  const [sidebar, setSidebar] = useState<"collections" | "history">("collections");
  const [naming, setNaming] = useState<Naming>(null);
  const [sharing, setSharing] = useState<{ id: string; name: string } | null>(null);
  const tabs = useOpenRequests();

  const list = useQuery(trpc.apiTester.collections.list.queryOptions({ namespace, limit: 200 }, { enabled: on }));
  const views = useQueries({ queries: (list.data?.collections ?? []).map((c) => trpc.apiTester.collections.get.queryOptions({ namespace, id: c.id }, { enabled: on })) });
  const collections: TreeCollection[] | undefined = list.data ? views.flatMap((v) => (v.data ? [{ id: v.data.id, name: v.data.sharedFrom ? `${v.data.name} (shared from ${v.data.sharedFrom.namespace})` : v.data.name, sharedFrom: v.data.sharedFrom, folders: v.data.folders, requests: v.data.requests }] : [])) : undefined;
  const environments = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: on }));
  const activeEnv = environments.data?.environments.find((e) => e.isActive) ?? null;
  const invalidateTree = () => queryClient.invalidateQueries({ queryKey: trpc.apiTester.collections.pathKey() });
  const invalidateEnvs = () => queryClient.invalidateQueries({ queryKey: trpc.apiTester.environments.pathKey() });

  const m = (opts?: { onSuccess?: () => void }) => ({ onError: toastError, onSuccess: () => (void invalidateTree(), opts?.onSuccess?.()) });
  const createCollection = useMutation(trpc.apiTester.collections.create.mutationOptions(m()));
  const updateCollection = useMutation(trpc.apiTester.collections.update.mutationOptions(m()));
  const duplicateCollection = useMutation(trpc.apiTester.collections.duplicate.mutationOptions(m()));
  const removeCollection = useMutation(trpc.apiTester.collections.remove.mutationOptions(m()));
  const createFolder = useMutation(trpc.apiTester.folders.create.mutationOptions(m()));
  const updateFolder = useMutation(trpc.apiTester.folders.update.mutationOptions(m()));
  const removeFolder = useMutation(trpc.apiTester.folders.remove.mutationOptions(m()));
  const createRequest = useMutation(trpc.apiTester.requests.create.mutationOptions(m()));
  const updateRequest = useMutation(trpc.apiTester.requests.update.mutationOptions(m()));
  const removeRequest = useMutation(trpc.apiTester.requests.remove.mutationOptions(m()));
  const reorder = useMutation(trpc.apiTester.requests.reorder.mutationOptions(m()));
  const move = useMutation(trpc.apiTester.requests.move.mutationOptions(m()));
  const activate = useMutation(trpc.apiTester.environments.activate.mutationOptions({ onError: toastError, onSuccess: () => void invalidateEnvs() }));
  const deactivate = useMutation(trpc.apiTester.environments.deactivate.mutationOptions({ onError: toastError, onSuccess: () => void invalidateEnvs() }));
  const send = useMutation(trpc.apiTester.execution.send.mutationOptions());
  const helpers = useProtocolHelpers(namespace);

  const openSaved = async (id: string) => {
    if (tabs.tabs.some((t) => t.id === id)) return tabs.setActiveId(id);
    try {
      const r = await queryClient.fetchQuery(trpc.apiTester.requests.get.queryOptions({ namespace, id }));
      tabs.open({ id, collectionId: r.collectionId, folderId: r.folderId, name: r.name, draft: definitionOf(r) });
    } catch (err) {
      toastError(err);
    }
  };
  const openNew = (draft: RequestDefinition = BLANK_REQUEST, name = "Untitled request") => tabs.open({ id: `new:${Date.now().toString(36)}`, collectionId: null, folderId: null, name, draft });

  const active = tabs.active;
  const doSend = () => {
    if (!active || !active.draft.url.trim()) return void toast.error("Enter a URL first");
    const useSaved = !isNew(active.id) && !active.dirty;
    tabs.patch(active.id, { sending: true, callError: null });
    send.mutate(
      {
        namespace,
        send: {
          ...(useSaved ? { requestId: active.id } : { request: active.draft, ...(active.collectionId ? { collectionId: active.collectionId } : {}) }),
          environmentId: activeEnv?.id ?? null,
        },
      },
      {
        onSuccess: (result) => {
          tabs.patch(active.id, { sending: false, result });
          void invalidateEnvs();
          void queryClient.invalidateQueries({ queryKey: trpc.apiTester.requests.history.pathKey() });
        },
        onError: (err) => tabs.patch(active.id, { sending: false, callError: { code: "api", message: err.message } }),
      },
    );
  };
  const doSave = () => {
    if (!active) return;
    if (!active.collectionId) return setNaming({ kind: "save", tabId: active.id });
    updateRequest.mutate({ namespace, id: active.id, patch: { name: active.name, ...active.draft } }, { onSuccess: () => (tabs.patch(active.id, { dirty: false }), toast.success(`Saved “${active.name}”`)) });
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        doSave();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const onRename = (node: NodeRef, name: string) => {
    if (node.type === "collection") updateCollection.mutate({ namespace, id: node.id, patch: { name } });
    else if (node.type === "folder") updateFolder.mutate({ namespace, id: node.id, patch: { name } });
    else updateRequest.mutate({ namespace, id: node.id, patch: { name } }, { onSuccess: () => tabs.patch(node.id, { name }) });
  };
  const onDelete = (node: NodeRef) => {
    if (node.type === "collection") removeCollection.mutate({ namespace, id: node.id }, { onSuccess: () => toast.success(`“${node.name}” moved to the trash`) });
    else if (node.type === "folder") removeFolder.mutate({ namespace, id: node.id });
    else removeRequest.mutate({ namespace, id: node.id }, { onSuccess: () => tabs.close(node.id) });
  };
  const onDuplicate = (node: NodeRef) => {
    if (node.type === "collection") return duplicateCollection.mutate({ namespace, id: node.id });
    if (node.type === "request")
      void queryClient.fetchQuery(trpc.apiTester.requests.get.queryOptions({ namespace, id: node.id })).then((r) => createRequest.mutate({ namespace, collectionId: r.collectionId, request: { ...definitionOf(r), name: `${r.name} (copy)`, folderId: r.folderId } }));
    else toast.info("Duplicate the collection to copy a folder with everything in it");
  };
  const onCreateRequest = (collectionId: string, folderId: string | null) =>
    createRequest.mutate({ namespace, collectionId, request: { name: "New request", url: "", folderId } }, { onSuccess: (r) => tabs.open({ id: r.id, collectionId, folderId, name: r.name, draft: definitionOf(r) }) });
  const createMockNow = useMutation(
    trpc.apiTester.mocks.fromResponse.mutationOptions({
      onError: toastError,
      onSuccess: (r) => toast.success(`Mock “${r.mock.id}” created`, { action: { label: "Open", onClick: () => router.push(hrefWithNs(`/mocks/${encodeURIComponent(r.mock.id)}`)) } }),
    }),
  );
  const createMockFromResponse = () => {
    const r = active?.result;
    if (r?.response && r.request) createMockNow.mutate({ namespace, input: { request: r.request, response: r.response } });
  };
  const [generateFor, setGenerateFor] = useState<string | null>(null);
  const [loadTest, setLoadTest] = useState<LoadTestTarget | null>(null);
  const generateMocks = useMutation(trpc.apiTester.mocks.fromCollection.mutationOptions());
  const saveAsMock = () => {
    const r = active?.result;
    if (!r?.response || !r.request) return;
    const key = stashMockDraft(mockDraftFromResponse(r.request, r.response));
    router.push(hrefWithNs(`/mocks/new?draft=${key}`));
  };

  const envVariables = activeEnv?.variables ?? {};
  const collectionOf = (id: string | null) => (id ? views.find((v) => v.data?.id === id)?.data : undefined);
  const collectionVariables = Object.fromEntries((collectionOf(active?.collectionId ?? null)?.variables ?? []).filter((v) => v.enabled).map((v) => [v.key, v.value]));
  const variables = { ...collectionVariables, ...envVariables };
  const inheritedAuth = (() => {
    const c = collectionOf(active?.collectionId ?? null);
    return c && c.auth.type !== "none" && c.auth.type !== "inherit" ? `collection “${c.name}” (${c.auth.type})` : undefined;
  })();

  const header = (
    <PageHeader
      title="API tester"
      description="Collections of requests with Postman-compatible scripts, sent from the server. Ctrl+Enter sends, Ctrl+S saves."
      actions={
        <>
          <Button asChild variant="outline" size="sm">
            <Link href={hrefWithNs("/tester/runs")}>Run history</Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link href={hrefWithNs("/tester/environments")}>Environments</Link>
          </Button>
          <Button asChild variant="outline" size="sm">
            <Link href={hrefWithNs("/tester/import")}>Import</Link>
          </Button>
        </>
      }
    />
  );
  if (!client)
    return (
      <div className="flex flex-col gap-4">
        {header}
        <Skeleton className="h-[40rem] w-full" />
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
    {header}
    <div className="grid min-h-[calc(100vh-12rem)] overflow-hidden rounded-xl border bg-card md:grid-cols-[18rem_1fr]">
      <aside aria-label="Collections, history and environment" className="flex min-h-0 flex-col gap-3 border-b bg-sidebar p-3 md:border-r md:border-b-0">
        <EnvironmentPicker
          environments={environments.data?.environments ?? []}
          value={activeEnv?.id ?? null}
          onChange={(id) => (id ? activate.mutate({ namespace, id }) : deactivate.mutate({ namespace }))}
          onManage={() => router.push(hrefWithNs("/tester/environments"))}
        />
        <div role="tablist" aria-label="Sidebar" className="flex gap-1">
          <Button type="button" role="tab" aria-selected={sidebar === "collections"} variant={sidebar === "collections" ? "secondary" : "ghost"} size="sm" onClick={() => setSidebar("collections")}>
            Collections
          </Button>
          <Button type="button" role="tab" aria-selected={sidebar === "history"} variant={sidebar === "history" ? "secondary" : "ghost"} size="sm" onClick={() => setSidebar("history")}>
            <History aria-hidden /> History
          </Button>
          <Button type="button" variant="ghost" size="icon" className="ml-auto" aria-label="New collection" onClick={() => setNaming({ kind: "collection" })}>
            <Plus aria-hidden />
          </Button>
        </div>
        {sidebar === "collections" ? (
          <CollectionTree
            collections={collections}
            isLoading={list.isLoading || views.some((v) => v.isLoading)}
            error={list.error ?? views.find((v) => v.error)?.error}
            activeRequestId={tabs.activeId}
            onOpenRequest={(id) => void openSaved(id)}
            onReorder={(collectionId, _folderId, ids) => reorder.mutate({ namespace, collectionId, ids })}
            onMove={(ids, collectionId, folderId) => move.mutate({ namespace, ids, collectionId, folderId })}
            onCreateCollection={() => setNaming({ kind: "collection" })}
            onImport={() => router.push(hrefWithNs("/import"))}
            onCreateRequest={onCreateRequest}
            onCreateFolder={(collectionId, parentId) => setNaming({ kind: "folder", collectionId, parentId })}
            onRename={onRename}
            onDuplicate={onDuplicate}
            onShare={(node) => setSharing({ id: node.id, name: node.name })}
            onDelete={onDelete}
            onRun={(collectionId) => router.push(hrefWithNs(`/tester/runner?collection=${collectionId}`))}
            onLoadTest={(collectionId, folderId) => {
              const collection = collections?.find((c) => c.id === collectionId);
              if (collection) setLoadTest({ collection, folderId });
            }}
            onGenerateMocks={(collectionId) => (generateMocks.reset(), setGenerateFor(collectionId))}
          />
        ) : (
          <HistoryList namespace={namespace} onOpen={(h) => openNew({ ...BLANK_REQUEST, method: h.method, url: h.url }, `${h.method} ${h.url}`)} />
        )}
      </aside>
      <main className="flex min-w-0 flex-col">
        <div className="flex items-end gap-2 border-b bg-muted/30 pr-2">
          <RequestTabs
            tabs={tabs.tabs.map((t) => ({ id: t.id, name: t.name, method: t.draft.method, kind: t.draft.kind, dirty: t.dirty || isNew(t.id) }))}
            activeId={tabs.activeId}
            onSelect={tabs.setActiveId}
            onClose={tabs.close}
            onNew={() => openNew()}
            panelId="tester-request-panel"
            className="min-w-0 flex-1 border-b-0"
          />
          <Button asChild variant="ghost" size="sm" className="mb-0.5">
            <Link href={hrefWithNs("/tester/runner")}>
              <ListChecks aria-hidden /> Runner
            </Link>
          </Button>
        </div>
        {active ? (
          <div id="tester-request-panel" className="flex min-w-0 flex-col gap-4 p-4">
            <div className="flex items-center gap-2">
              <h2 className="truncate text-sm font-medium" title={active.name}>
                {active.name}
              </h2>
              <Button type="button" size="sm" variant="outline" className="ml-auto" onClick={doSave} pending={updateRequest.isPending} aria-keyshortcuts="Control+S">
                Save
              </Button>
            </div>
            <RequestEditor
              value={active.draft}
              onChange={(next) => tabs.patch(active.id, { draft: next, dirty: true })}
              variables={variables}
              onSend={doSend}
              sending={active.sending}
              inheritedAuth={inheritedAuth}
              editorHeight={220}
              helpers={helpers}
            />
            <div className="border-t pt-3">
              <ResponseViewer
                sending={active.sending}
                response={active.result?.response ?? null}
                request={active.result?.request ?? null}
                error={active.callError ?? active.result?.sendError ?? null}
                tests={active.result ?? null}
                onSaveAsMock={active.result?.response ? saveAsMock : undefined}
                onCreateMockNow={active.result?.response ? createMockFromResponse : undefined}
                creatingMock={createMockNow.isPending}
                bodyHeight={260}
              />
            </div>
          </div>
        ) : (
          <div className="flex flex-1 flex-col items-center justify-center gap-3 p-10 text-center text-sm text-muted-foreground">
            <SendHorizontal className="size-6" aria-hidden />
            <p>Open a request from a collection, or start a new one.</p>
            <Button type="button" variant="outline" size="sm" onClick={() => openNew()}>
              <Plus aria-hidden /> New request
            </Button>
          </div>
        )}
      </main>
      <ShareCollectionDialog collection={sharing} onClose={() => setSharing(null)} />
      <CollectionLoadTest target={loadTest} onClose={() => setLoadTest(null)} activeEnvironmentId={activeEnv?.id ?? null} />
      <GenerateMocksDialog
        open={generateFor !== null}
        onOpenChange={(o) => !o && setGenerateFor(null)}
        collectionName={list.data?.collections.find((c) => c.id === generateFor)?.name ?? "collection"}
        pending={generateMocks.isPending}
        error={generateMocks.error}
        result={generateMocks.data ?? null}
        onGenerate={({ execute }) => generateFor && generateMocks.mutate({ namespace, input: { collectionId: generateFor, execute } })}
        mocksHref={hrefWithNs("/mocks")}
      />
      <NameDialog
        open={naming !== null}
        onOpenChange={(o) => !o && setNaming(null)}
        title={naming?.kind === "collection" ? "New collection" : naming?.kind === "folder" ? "New folder" : "Save request"}
        label={naming?.kind === "save" ? "Request name" : "Name"}
        initial={naming?.kind === "save" ? (tabs.tabs.find((t) => t.id === naming.tabId)?.name ?? "") : ""}
        collections={naming?.kind === "save" ? (list.data?.collections ?? []) : undefined}
        pending={createCollection.isPending || createFolder.isPending || createRequest.isPending}
        onSubmit={(name, collectionId) => {
          if (naming?.kind === "collection") createCollection.mutate({ namespace, collection: { name } }, { onSuccess: () => setNaming(null) });
          else if (naming?.kind === "folder") createFolder.mutate({ namespace, collectionId: naming.collectionId, folder: { name, parentId: naming.parentId } }, { onSuccess: () => setNaming(null) });
          else if (naming?.kind === "save" && collectionId) {
            const tab = tabs.tabs.find((t) => t.id === naming.tabId);
            if (!tab) return;
            createRequest.mutate(
              { namespace, collectionId, request: { ...tab.draft, name } },
              { onSuccess: (r) => (tabs.replace(tab.id, { id: r.id, name: r.name, collectionId, folderId: null, dirty: false }), setNaming(null), toast.success(`Saved “${r.name}”`)) },
            );
          }
        }}
      />
    </div>
    </div>
  );
}
