"use client";
// The mock editor: the form and the JSON tab over one draft, Save with the
// server's conflict answers turned into questions, and a guard against
// leaving with unsaved changes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArchiveRestore, Save, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { errorCode, extraOf } from "@/components/lib/api-error";
import { toastError } from "@/components/lib/toast-error";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { RequestLogView } from "../../../logs/_components/request-log-view";
import { useNamespace } from "../../../_components/namespace-context";
import { ChainPanel } from "../chain-panel";
import { ProtocolBadge, protocolLabel } from "../protocol-badge";
import { useUrlParams } from "../use-url-params";
import { DetailsSection } from "./details-section";
import { checkDraft, protocolOfDraft, setIn, type Draft, type DraftProblem, type Path } from "./draft";
import { DuplicateDialog, type DuplicateConflict } from "./duplicate-dialog";
import { EditorProblemsProvider, useEditorProblemsState } from "./editor-problems";
import { IdTakenDialog, type TakenId } from "./id-taken-dialog";
import { useTemplateHints } from "./use-template-hints";
import { stableJson, useUnsavedGuard } from "@/components/lib/use-unsaved-guard";
import { LimitsSection, OneOfSection, ProxySection, ResponseSection, StoresSection, WebhooksSection } from "./form/behaviour-sections";
import { ProtocolSection } from "./form/protocol-section";
import { HistoryTab } from "./history-tab";
import { JsonTab } from "./json-tab";
import { TryIt } from "./try-it";

/** Protocols Try it can call from the browser: HTTP-borne ones and WebSocket. */
const TRIED = new Set(["http", "graphql", "soap", "mcp", "sse", "s3", "socket"]);

export interface MockEditorProps {
  /** The saved mock's id; absent for a new one. */
  mockId?: string;
  initial: Draft;
  deleted?: boolean;
  version?: number;
  /** Saving resolves this undefined request (the editor was opened from it). */
  fromUndefinedRequest?: string;
}

/** One mock, edited through a form per protocol or as JSON; both edit the same draft. */
export function MockEditor({ mockId, initial, deleted = false, version, fromUndefinedRequest }: MockEditorProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const isNew = !mockId;
  const [draft, setDraft] = useState<Draft>(initial);
  // The tab is in the URL (?tab=json), so it survives the reload after a save or restore and can be linked.
  const url = useUrlParams();
  const tab = url.get("tab") ?? "form";
  const setTab = (t: string) => url.set({ tab: t === "form" ? null : t });
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  const [problems, setProblems] = useState<DraftProblem[]>([]);
  const [conflict, setConflict] = useState<DuplicateConflict | null>(null);
  const [confirm, setConfirm] = useState<"delete" | "purge" | null>(null);
  const [taken, setTaken] = useState<TakenId | null>(null);
  const [checkingId, setCheckingId] = useState(false);
  const formProblems = useEditorProblemsState();
  const set = useCallback((path: Path, value: unknown) => setDraft((d) => setIn(d, path, value)), []);
  useTemplateHints();
  const [saved, setSaved] = useState(false);
  const initialJson = useMemo(() => stableJson(initial), [initial]);
  const dirty = !saved && (jsonProblem !== null || Object.keys(formProblems.problems).length > 0 || stableJson(draft) !== initialJson);
  const guard = useUnsavedGuard(dirty);
  /** The editor moving on by itself: the unsaved-changes guard's history entry goes first. */
  const moveTo = (path: string, how: "push" | "replace" = "push") => void guard.release().then(() => router[how](hrefWithNs(path)));

  const afterSave = (r: { overwritten: boolean; mock: { id: string } }) => {
    setConflict(null);
    setTaken(null);
    // What was saved is no longer "unsaved" while the page moves on to the stored copy.
    setSaved(true);
    void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.folders.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.undefinedRequests.pathKey() });
    toast.success(isNew && !r.overwritten ? `Mock “${r.mock.id}” created` : `Mock “${r.mock.id}” saved`);
    if (isNew || r.mock.id !== mockId) moveTo(`/mocks/${encodeURIComponent(r.mock.id)}`, "replace");
  };
  const onSaveError = (err: unknown) => {
    const extra = extraOf(err);
    if (errorCode(err) === "duplicate_entity" && extra) setConflict({ message: (err as Error).message, ...(extra as Omit<DuplicateConflict, "message">) });
    // A server that refuses an existing id itself answers 409 conflict: the same question as the check below.
    else if (errorCode(err) === "conflict" && isNew && typeof draft.id === "string") setTaken({ id: draft.id, deleted: false });
  };
  const save = useMutation(trpc.mocks.save.mutationOptions({ onSuccess: afterSave, onError: onSaveError }));
  const saveFromUndefined = useMutation(trpc.undefinedRequests.saveMock.mutationOptions({ onSuccess: afterSave, onError: onSaveError }));
  const saving = save.isPending || saveFromUndefined.isPending || checkingId;
  const saveError = conflict || taken ? null : (save.error ?? saveFromUndefined.error);

  const invalidateAll = () => void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
  const remove = useMutation(trpc.mocks.remove.mutationOptions({ onSuccess: () => (toast.success("Moved to the recycle bin"), setConfirm(null), invalidateAll()), onError: toastError }));
  const restore = useMutation(trpc.mocks.batchRestore.mutationOptions({ onSuccess: () => (toast.success("Restored"), invalidateAll()), onError: toastError }));
  const purge = useMutation(
    trpc.mocks.purge.mutationOptions({
      onSuccess: () => {
        toast.success("Deleted permanently");
        invalidateAll();
        moveTo("/mocks?view=bin");
      },
      onError: toastError,
    }),
  );

  /** A new mock with an id: is that id in use (recycle bin included)? Saving it would replace that mock. */
  async function idInUse(id: string): Promise<TakenId | null> {
    try {
      const existing = await queryClient.fetchQuery({ ...trpc.mocks.get.queryOptions({ namespace, id }), staleTime: 0 });
      return { id, deleted: existing.deleted };
    } catch (err) {
      if (errorCode(err) === "not_found") return null;
      throw err;
    }
  }

  async function submit(intent?: "overwrite" | "create_new") {
    if (jsonProblem) {
      toast.error("Fix the JSON first: " + jsonProblem);
      return;
    }
    const unparsable = Object.values(formProblems.problems);
    if (unparsable.length) {
      setProblems(unparsable.map((message) => ({ path: "", message })));
      toast.error(`Not saved: ${unparsable[0]}`);
      return;
    }
    const found = checkDraft(draft);
    setProblems(found);
    if (found.length) return;
    if (isNew && !intent && typeof draft.id === "string" && draft.id) {
      setCheckingId(true);
      try {
        const inUse = await idInUse(draft.id);
        if (inUse) return setTaken(inUse);
      } catch (err) {
        return toastError(err);
      } finally {
        setCheckingId(false);
      }
    }
    const mock = (isNew ? draft : { ...draft, id: mockId }) as never;
    if (fromUndefinedRequest) saveFromUndefined.mutate({ namespace, id: fromUndefinedRequest, mock, intent });
    else save.mutate({ namespace, mock, intent });
  }

  const submitRef = useCallback(() => void submit(), [draft, jsonProblem, namespace, formProblems.problems]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        submitRef();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [submitRef]);

  const protocol = protocolOfDraft(draft);
  // The saved chain id, not the draft's: the Chain tab shows what the server has.
  const chainId = !isNew && typeof initial.chainId === "string" && initial.chainId ? initial.chainId : null;
  const http = draft.http as { route?: string } | undefined;
  const stubPath = `/stubs/${namespace ?? "<namespace>"}${(draft.pathPrefix as string | undefined) ?? ""}${http?.route ?? ""}`;

  return (
    <>
      <PageHeader
        title={isNew ? "New mock" : mockId}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <ProtocolBadge protocol={protocol} />
            {protocol === "http" ? <code className="font-mono text-xs">{stubPath}</code> : null}
            {version ? <span>version {version}</span> : null}
            {chainId ? (
              <Link href={hrefWithNs(`/mocks/chains/${encodeURIComponent(chainId)}`)} className="hover:underline">
                chain <code className="font-mono text-xs">{chainId}</code>
              </Link>
            ) : null}
            {fromUndefinedRequest ? <span>from an undefined request; saving resolves it</span> : null}
          </span>
        }
        actions={
          <>
            {protocol === "http" && !isNew ? <CopyButton size="sm" value={`${typeof window === "undefined" ? "" : window.location.origin}${stubPath}`} label="Copy stub URL" /> : null}
            {!isNew && !deleted ? (
              <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirm("delete")}>
                <Trash2 aria-hidden /> Delete
              </Button>
            ) : null}
            {!deleted ? (
              <Button className="hidden sm:inline-flex" onClick={() => void submit()} pending={saving}>
                <Save aria-hidden /> Save mock
              </Button>
            ) : null}
          </>
        }
      />
      {deleted ? (
        <Alert variant="warning" title="This mock is in the recycle bin">
          <div className="flex flex-wrap items-center gap-2">
            <span>It does not answer requests. Restore it to edit it again.</span>
            <Button size="sm" pending={restore.isPending} onClick={() => mockId && restore.mutate({ namespace, ids: [mockId] })}>
              <ArchiveRestore aria-hidden /> Restore
            </Button>
            <Button size="sm" variant="outline" className="text-destructive" onClick={() => setConfirm("purge")}>
              Delete permanently
            </Button>
          </div>
        </Alert>
      ) : null}
      {problems.length ? (
        <Alert variant="error" title="The mock is not valid yet">
          <ul className="list-disc pl-4">
            {problems.slice(0, 10).map((p, i) => (
              <li key={i}>
                {p.path ? (
                  <>
                    <code className="font-mono">{p.path}</code>:{" "}
                  </>
                ) : null}
                {p.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {saveError ? <ApiErrorAlert error={saveError} title="Not saved" /> : null}
      <EditorProblemsProvider value={formProblems.value}>
      <Tabs
        value={tab}
        onValueChange={(t) => {
          if (tab === "json" && jsonProblem) {
            toast.error("Fix the JSON before leaving the JSON tab");
            return;
          }
          // The form's unparsable text would be lost with the tab: its editors unmount.
          if (tab === "form" && Object.keys(formProblems.problems).length) {
            toast.error(`Fix the form before leaving it: ${Object.values(formProblems.problems)[0]}`);
            return;
          }
          setTab(t);
        }}
      >
        <TabsList className="w-full justify-start sm:w-auto">
          <TabsTrigger value="form">Form</TabsTrigger>
          <TabsTrigger value="json">JSON</TabsTrigger>
          {!isNew ? <TabsTrigger value="try">Try it</TabsTrigger> : null}
          {!isNew ? <TabsTrigger value="history">History</TabsTrigger> : null}
          {!isNew ? <TabsTrigger value="log">Request log</TabsTrigger> : null}
          {chainId ? <TabsTrigger value="chain">Chain</TabsTrigger> : null}
        </TabsList>
        <TabsContent value="form" className="flex flex-col gap-4">
          <DetailsSection draft={draft} set={set} isNew={isNew} />
          <ProtocolSection draft={draft} set={set} />
          <ResponseSection draft={draft} set={set} />
          <OneOfSection draft={draft} set={set} />
          <ProxySection draft={draft} set={set} />
          <WebhooksSection draft={draft} set={set} />
          <LimitsSection draft={draft} set={set} />
          <StoresSection draft={draft} set={set} />
        </TabsContent>
        <TabsContent value="json">
          <JsonTab draft={draft} onChange={setDraft} onValidity={setJsonProblem} />
        </TabsContent>
        {mockId ? (
          <>
            <TabsContent value="try">
              {TRIED.has(protocol) ? <TryIt mockId={mockId} draft={draft} protocol={protocol} /> : <Alert title="Try it calls HTTP and WebSocket mocks">A {protocolLabel(protocol)} mock is called with a {protocolLabel(protocol)} client; its calls show in the request log.</Alert>}
            </TabsContent>
            <TabsContent value="history">
              <HistoryTab mockId={mockId} deleted={deleted} />
            </TabsContent>
            <TabsContent value="log">
              <RequestLogView mockId={mockId} />
            </TabsContent>
            {chainId ? (
              <TabsContent value="chain">
                <ChainPanel chainId={chainId} currentMockId={mockId} showPageLink />
              </TabsContent>
            ) : null}
          </>
        ) : null}
      </Tabs>
      </EditorProblemsProvider>
      {!deleted ? (
        // On a phone the header scrolls away; Save stays at the bottom of the screen.
        <div className="sticky bottom-0 z-20 -mx-4 flex justify-end gap-2 border-t bg-background/95 px-4 py-3 backdrop-blur sm:hidden">
          <Button className="w-full" onClick={() => void submit()} pending={saving}>
            <Save aria-hidden /> Save mock
          </Button>
        </div>
      ) : null}
      <IdTakenDialog
        taken={taken}
        pending={saving}
        onOverwrite={() => void submit("overwrite")}
        onPickAnother={() => setTaken(null)}
        onOpenExisting={() => taken && moveTo(`/mocks/${encodeURIComponent(taken.id)}`)}
      />
      <ConfirmDialog
        open={guard.target !== null}
        onOpenChange={(o) => !o && guard.stay()}
        title="Leave without saving?"
        description="This mock has changes that are not saved. They are lost if you leave now."
        confirmLabel="Leave without saving"
        onConfirm={guard.leave}
      />
      <DuplicateDialog
        conflict={conflict}
        pending={saving}
        onClose={() => setConflict(null)}
        onOverwrite={() => void submit("overwrite")}
        onCreateNew={() => void submit("create_new")}
        onOpenExisting={() => conflict && moveTo(`/mocks/${encodeURIComponent(conflict.existing.id)}`)}
      />
      <ConfirmDialog
        open={confirm === "delete"}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={`Delete “${mockId ?? ""}”?`}
        description="It moves to the recycle bin and stops answering; you can restore it with its history."
        confirmLabel="Move to recycle bin"
        pending={remove.isPending}
        onConfirm={() => mockId && remove.mutate({ namespace, id: mockId })}
      />
      <ConfirmDialog
        open={confirm === "purge"}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={`Delete “${mockId ?? ""}” permanently?`}
        description="The mock and its whole history are removed. This cannot be undone."
        confirmLabel="Delete permanently"
        pending={purge.isPending}
        onConfirm={() => mockId && purge.mutate({ namespace, id: mockId })}
      />
    </>
  );
}
