"use client";
// The workspace's "Load test…" on a collection or folder: wires the load test
// dialog to tRPC. Start runs the selection (perf/run-collection) and opens the
// live result; "Save as load test" stores the generated k6 script as a load
// test and opens it. A folder is run as its requests (nested folders too).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { CollectionLoadDialog, type CollectionLoadValues } from "@/components/perf/collection-load-dialog";
import type { TreeCollection } from "@/components/tester/collection-tree-model";
import { useNamespace } from "../../_components/namespace-context";

export interface LoadTestTarget {
  collection: TreeCollection;
  /** null: the whole collection. */
  folderId: string | null;
}

// The performance pages' addresses (app/(app)/perf/_components/paths.ts, private to that route).
const resultPath = (id: string) => `/perf/results/${encodeURIComponent(id)}`;
const configPath = (id: string) => `/perf/configs/${encodeURIComponent(id)}`;

/** The folder's requests and those of the folders inside it. */
function requestIdsUnder(c: TreeCollection, folderId: string): string[] {
  const folders = new Set([folderId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const f of c.folders) {
      if (f.parentId && folders.has(f.parentId) && !folders.has(f.id)) {
        folders.add(f.id);
        grew = true;
      }
    }
  }
  return [...c.requests].sort((a, b) => a.sortIndex - b.sortIndex).filter((r) => r.folderId && folders.has(r.folderId)).map((r) => r.id);
}

export function CollectionLoadTest({ target, onClose, activeEnvironmentId }: { target: LoadTestTarget | null; onClose: () => void; activeEnvironmentId: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const open = target !== null;
  const environments = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: !!namespace && open }));
  const runners = useQuery(trpc.runners.list.queryOptions({ namespace }, { enabled: !!namespace && open, refetchInterval: open ? 15_000 : false }));
  const run = useMutation(trpc.perf.runCollection.mutationOptions());
  const generate = useMutation(trpc.perfScripts.fromCollections.mutationOptions());
  const create = useMutation(trpc.perf.configs.create.mutationOptions());

  const c = target?.collection;
  const folder = c && target.folderId ? c.folders.find((f) => f.id === target.folderId) : undefined;
  const all = c ? (target.folderId ? requestIdsUnder(c, target.folderId) : [...c.requests].map((r) => r.id)) : [];
  const label = c ? (folder ? `folder “${folder.name}” of “${c.name}”` : `collection “${c.name}”`) : "";
  const selection = (exclude: string[]) => {
    if (!c) return [];
    // The whole collection goes by id, so requests added later are part of the next run too.
    if (!target.folderId && !exclude.length) return [c.id];
    return [{ collectionId: c.id, requestIds: all.filter((id) => !exclude.includes(id)) }];
  };
  const reset = () => {
    run.reset();
    generate.reset();
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };

  const start = (v: CollectionLoadValues) => {
    if (!c) return;
    generate.reset();
    create.reset();
    const name = `Load: ${folder ? `${c.name} / ${folder.name}` : c.name}`;
    run.mutate(
      { namespace, run: { collectionIds: selection(v.excludeRequestIds), perfOptions: v.perfOptions, environmentId: v.environmentId, name, ...(v.runnerId ? { runnerId: v.runnerId } : {}) } },
      {
        onSuccess: (started) => {
          void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() });
          close();
          router.push(hrefWithNs(resultPath(started.id)));
        },
      },
    );
  };

  const save = async (v: CollectionLoadValues) => {
    if (!c) return;
    run.reset();
    try {
      const g = await generate.mutateAsync({ namespace, request: { collectionIds: selection(v.excludeRequestIds), perfOptions: v.perfOptions, environmentId: v.environmentId } });
      // The options are written into the script; secrets stay in the environment the config names.
      const config = await create.mutateAsync({
        namespace,
        config: { name: `Load: ${folder ? `${c.name} / ${folder.name}` : c.name}`, description: `Generated from the API tester's ${label}.`, script: g.script, options: {}, environment: {}, files: {}, collectionIds: g.collectionIds, environmentId: g.environmentId },
      });
      void queryClient.invalidateQueries({ queryKey: trpc.perf.configs.pathKey() });
      toast.success(`${config.name} saved as a load test`);
      close();
      router.push(hrefWithNs(configPath(config.id)));
    } catch {
      // Shown in the dialog.
    }
  };

  return (
    <CollectionLoadDialog
      open={open}
      onOpenChange={(o) => !o && close()}
      targetLabel={label}
      requestCount={all.length}
      environments={environments.data?.environments ?? []}
      defaultEnvironmentId={activeEnvironmentId}
      runners={(runners.data?.runners ?? []).filter((r) => r.status === "online").map((r) => ({ id: r.id, name: r.name, freeVus: r.capacityVus - r.activeVus }))}
      pending={run.isPending ? "start" : generate.isPending || create.isPending ? "save" : null}
      error={run.error ?? generate.error ?? create.error}
      onStart={start}
      onSave={(v) => void save(v)}
    />
  );
}
