"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArchiveRestore, Save, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
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
import { ProtocolBadge } from "../protocol-badge";
import { useUrlParams } from "../use-url-params";
import { DetailsSection } from "./details-section";
import { checkDraft, protocolOfDraft, setIn, type Draft, type DraftProblem, type Path } from "./draft";
import { DuplicateDialog, type DuplicateConflict } from "./duplicate-dialog";
import { LimitsSection, OneOfSection, ProxySection, ResponseSection, StoresSection, WebhooksSection } from "./form/behaviour-sections";
import { ProtocolSection } from "./form/protocol-section";
import { HistoryTab } from "./history-tab";
import { JsonTab } from "./json-tab";
import { TryIt } from "./try-it";

const HTTP_LIKE = new Set(["http", "graphql", "soap", "mcp", "sse", "s3"]);

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
  const set = useCallback((path: Path, value: unknown) => setDraft((d) => setIn(d, path, value)), []);

  const afterSave = (r: { overwritten: boolean; mock: { id: string } }) => {
    setConflict(null);
    void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.folders.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.undefinedRequests.pathKey() });
    toast.success(isNew && !r.overwritten ? `Mock “${r.mock.id}” created` : `Mock “${r.mock.id}” saved`);
    if (isNew || r.mock.id !== mockId) router.replace(hrefWithNs(`/mocks/${encodeURIComponent(r.mock.id)}`));
  };
  const onSaveError = (err: unknown) => {
    const extra = extraOf(err);
    if (errorCode(err) === "duplicate_entity" && extra) setConflict({ message: (err as Error).message, ...(extra as Omit<DuplicateConflict, "message">) });
  };
  const save = useMutation(trpc.mocks.save.mutationOptions({ onSuccess: afterSave, onError: onSaveError }));
  const saveFromUndefined = useMutation(trpc.undefinedRequests.saveMock.mutationOptions({ onSuccess: afterSave, onError: onSaveError }));
  const saving = save.isPending || saveFromUndefined.isPending;
  const saveError = conflict ? null : (save.error ?? saveFromUndefined.error);

  const invalidateAll = () => void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
  const remove = useMutation(trpc.mocks.remove.mutationOptions({ onSuccess: () => (toast.success("Moved to the recycle bin"), setConfirm(null), invalidateAll()), onError: toastError }));
  const restore = useMutation(trpc.mocks.batchRestore.mutationOptions({ onSuccess: () => (toast.success("Restored"), invalidateAll()), onError: toastError }));
  const purge = useMutation(
    trpc.mocks.purge.mutationOptions({
      onSuccess: () => {
        toast.success("Deleted permanently");
        invalidateAll();
        router.push(hrefWithNs("/mocks?view=bin"));
      },
      onError: toastError,
    }),
  );

  function submit(intent?: "overwrite" | "create_new") {
    if (jsonProblem) {
      toast.error("Fix the JSON first: " + jsonProblem);
      return;
    }
    const found = checkDraft(draft);
    setProblems(found);
    if (found.length) return;
    const mock = (isNew ? draft : { ...draft, id: mockId }) as never;
    if (fromUndefinedRequest) saveFromUndefined.mutate({ namespace, id: fromUndefinedRequest, mock, intent });
    else save.mutate({ namespace, mock, intent });
  }

  const submitRef = useCallback(() => submit(), [draft, jsonProblem, namespace]); // eslint-disable-line react-hooks/exhaustive-deps
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
              <Button onClick={() => submit()} pending={saving}>
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
                <code className="font-mono">{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {saveError ? <ApiErrorAlert error={saveError} title="Not saved" /> : null}
      <Tabs
        value={tab}
        onValueChange={(t) => {
          if (tab === "json" && jsonProblem) {
            toast.error("Fix the JSON before leaving the JSON tab");
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
              {HTTP_LIKE.has(protocol) ? <TryIt mockId={mockId} draft={draft} /> : <Alert title="Try it sends HTTP requests">A {protocol} mock is called with a {protocol} client; its calls show in the request log.</Alert>}
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
      <DuplicateDialog
        conflict={conflict}
        pending={saving}
        onClose={() => setConflict(null)}
        onOverwrite={() => submit("overwrite")}
        onCreateNew={() => submit("create_new")}
        onOpenExisting={() => conflict && router.push(hrefWithNs(`/mocks/${encodeURIComponent(conflict.existing.id)}`))}
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
