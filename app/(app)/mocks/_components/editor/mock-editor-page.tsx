"use client";
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useSyncExternalStore } from "react";
import { takeMockDraft } from "../../../tester/_components/mock-from-response";
import { useTRPC } from "@/app/_trpc/client";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { SkeletonRows } from "@/components/ui/skeleton";
import { useNamespace } from "../../../_components/namespace-context";
import { exampleMock } from "../example-mock";
import { draftOf, type Draft } from "./draft";
import { MockEditor } from "./mock-editor";

const noSubscription = () => () => {};
const BLANK: Draft = { http: { route: "/", httpMethod: "GET" }, response: { statusCode: 200, payload: {} } };

/** /mocks/<id>: loads the mock; the editor restarts from the server's copy after each save or restore (a new version). */
export function ExistingMockPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const mock = useQuery(trpc.mocks.get.queryOptions({ namespace, id }, { enabled: !!namespace }));
  if (mock.error) return <ApiErrorAlert error={mock.error} title={`Mock “${id}” cannot be opened`} />;
  if (!mock.data) return <SkeletonRows rows={6} label="Loading the mock" />;
  return <MockEditor key={`${id}:${mock.data.version}:${mock.data.deleted}`} mockId={id} initial={draftOf(mock.data)} deleted={mock.data.deleted} version={mock.data.version} />;
}

/** /mocks/new, optionally ?from=<undefined request id> (prefilled from it), ?draft=<key> (a draft the API tester stashed: "Save response as mock") or ?example=1. */
export function NewMockPage() {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const params = useSearchParams();
  const from = params.get("from");
  const draftKey = params.get("draft");
  // sessionStorage exists only in the browser: read it once mounted, so the server's HTML and the first client render agree
  // (takeMockDraft remembers what it read, so later renders get the same draft).
  const mounted = useSyncExternalStore(noSubscription, () => true, () => false);
  const stashed = mounted && draftKey ? takeMockDraft(draftKey) : undefined;
  const draft = useQuery(trpc.undefinedRequests.draft.queryOptions({ namespace, id: from ?? "" }, { enabled: !!namespace && !!from }));
  if (from) {
    if (draft.error) return <ApiErrorAlert error={draft.error} title="The undefined request cannot be opened" />;
    if (!draft.data) return <SkeletonRows rows={6} label="Loading the undefined request" />;
    return <MockEditor key={from} initial={draft.data.draft as Draft} fromUndefinedRequest={from} />;
  }
  if (draftKey && stashed === undefined) return <SkeletonRows rows={6} label="Loading the response" />;
  if (draftKey && stashed) return <MockEditor key={`draft-${draftKey}`} initial={stashed as Draft} />;
  return <MockEditor key="new" initial={params.get("example") ? (exampleMock() as Draft) : BLANK} />;
}
