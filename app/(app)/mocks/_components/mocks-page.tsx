"use client";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { Boxes, Plus, Search, Sparkles, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { useDebounced } from "@/components/lib/use-debounced";
import { Pager } from "@/components/ui/pager";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { PROTOCOLS, type Protocol } from "@/server/contracts/mock";
import { useNamespace } from "../../_components/namespace-context";
import { BatchActions } from "./batch-actions";
import { exampleMock } from "./example-mock";
import { FolderTree } from "./folder-tree";
import { MockTable } from "./mock-table";
import { PROTOCOL_LABELS } from "./protocol-badge";
import { useGlobalShortcuts } from "./use-global-shortcuts";
import { useUrlParams } from "./use-url-params";

const PAGE_SIZE = 25;
const ANY = "__any__";

export function MocksPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const url = useUrlParams();
  const bin = url.get("view") === "bin";
  const protocol = url.get("protocol") as Protocol | null;
  const tag = url.get("tag");
  const folder = url.get("folder");
  const page = Math.max(1, Number(url.get("page") ?? 1) || 1);
  const [search, setSearch] = useState(url.get("q") ?? "");
  const debounced = useDebounced(search.trim(), 300);
  const searchRef = useRef<HTMLInputElement>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const urlQ = url.get("q") ?? "";
  const setUrl = url.set;
  useEffect(() => {
    if (debounced !== urlQ) setUrl({ q: debounced, page: null });
  }, [debounced, urlQ, setUrl]);

  const filters = { search: urlQ || undefined, protocol: protocol ?? undefined, tags: tag ?? undefined, folderId: folder ?? undefined, deleted: bin || undefined };
  const filterKey = JSON.stringify([namespace, filters]);
  const [selectionKey, setSelectionKey] = useState(filterKey);
  if (selectionKey !== filterKey) {
    // A selection belongs to the list it was made in.
    setSelectionKey(filterKey);
    setSelected(new Set());
  }

  const list = useQuery(
    trpc.mocks.list.queryOptions({ namespace, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, ...filters }, { enabled: !!namespace, placeholderData: keepPreviousData }),
  );
  const tags = useQuery(trpc.tags.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const createExample = useMutation(
    trpc.mocks.save.mutationOptions({
      onSuccess: (r) => {
        toast.success("Example mock created");
        router.push(hrefWithNs(`/mocks/${encodeURIComponent(r.mock.id)}`));
      },
      onError: toastError,
    }),
  );

  const hrefOf = (id: string) => hrefWithNs(`/mocks/${encodeURIComponent(id)}`);
  useGlobalShortcuts({
    "/": () => searchRef.current?.focus(),
    n: () => router.push(hrefWithNs("/mocks/new")),
    ArrowDown: () => document.querySelector<HTMLElement>("[data-mock-row]")?.focus(),
  });

  const mocks = list.data?.mocks ?? [];
  const total = list.data?.total ?? 0;
  const filtered = Boolean(urlQ || protocol || tag || folder);
  const select = (ids: string[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const empty = bin
    ? { icon: Trash2, title: "The recycle bin is empty", body: "Deleted mocks land here and can be restored, with their history." }
    : {
        icon: Boxes,
        title: "No mocks in this namespace yet",
        action: (
          <div className="flex flex-wrap justify-center gap-2">
            <Button pending={createExample.isPending} onClick={() => createExample.mutate({ namespace, mock: exampleMock() })}>
              <Sparkles aria-hidden /> Create an example mock
            </Button>
            <Button variant="outline" asChild>
              <Link href={hrefWithNs("/mocks/new")}>New mock</Link>
            </Button>
          </div>
        ),
        body: (
          <>
            A mock answers requests to <code className="font-mono text-xs">/stubs/{namespace ?? "<namespace>"}/…</code> with the response you define. The example answers{" "}
            <code className="font-mono text-xs">GET /users/:id</code> with generated data; open it to see how conditions and templates work.
          </>
        ),
      };

  return (
    <>
      <PageHeader
        title="Mocks"
        description={
          <>
            Everything this namespace answers under <code className="font-mono text-xs">/stubs/{namespace ?? "…"}</code>. Press <kbd className="rounded border px-1 text-xs">/</kbd> to search,{" "}
            <kbd className="rounded border px-1 text-xs">n</kbd> for a new mock.
          </>
        }
        actions={
          <Button asChild>
            <Link href={hrefWithNs("/mocks/new")}>
              <Plus aria-hidden /> New mock
            </Link>
          </Button>
        }
      />
      <div className="flex flex-col gap-6 lg:flex-row">
        <aside className="lg:w-56 lg:shrink-0">
          <FolderTree value={folder} onChange={(v) => url.set({ folder: v, page: null })} />
        </aside>
        <section className="flex min-w-0 flex-1 flex-col gap-4" aria-label="Mock list">
          <Tabs value={bin ? "bin" : "active"} onValueChange={(v) => url.set({ view: v === "bin" ? "bin" : null, page: null })}>
            <TabsList className="w-auto">
              <TabsTrigger value="active">Active</TabsTrigger>
              <TabsTrigger value="bin">Recycle bin</TabsTrigger>
            </TabsList>
          </Tabs>
          <div className="flex flex-wrap items-center gap-2">
            <div className="relative min-w-56 flex-1">
              <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" aria-hidden />
              <Input ref={searchRef} type="search" aria-label="Search mocks" placeholder="Search ids, routes, tags…" className="pl-8" value={search} onChange={(e) => setSearch(e.target.value)} />
            </div>
            <Select value={protocol ?? ANY} onValueChange={(v) => url.set({ protocol: v === ANY ? null : v, page: null })}>
              <SelectTrigger className="w-40" aria-label="Protocol">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ANY}>All protocols</SelectItem>
                {PROTOCOLS.map((p) => (
                  <SelectItem key={p} value={p}>
                    {PROTOCOL_LABELS[p]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Select value={tag ?? ANY} onValueChange={(v) => url.set({ tag: v === ANY ? null : v, page: null })}>
              <SelectTrigger className="w-40" aria-label="Tag">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ANY}>All tags</SelectItem>
                {(tags.data?.tags ?? []).map((t) => (
                  <SelectItem key={t.name} value={t.name}>
                    {t.name} ({t.mockCount})
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          {selected.size ? <BatchActions ids={[...selected]} bin={bin} onDone={() => setSelected(new Set())} /> : null}
          <MockTable
            data={namespace ? list.data?.mocks : undefined}
            isLoading={list.isLoading || !namespace}
            error={list.error}
            empty={empty}
            filtered={filtered}
            noMatch={{ title: "No mock matches these filters", body: "Search looks in mock ids, routes and tags." }}
            footer={mocks.length ? <Pager offset={(page - 1) * PAGE_SIZE} shown={mocks.length} total={total} pageSize={PAGE_SIZE} onOffset={(o) => url.set({ page: String(o / PAGE_SIZE + 1) })} /> : null}
            selected={selected}
            onSelect={select}
            hrefOf={hrefOf}
            onOpen={(id) => router.push(hrefOf(id))}
          />
        </section>
      </div>
    </>
  );
}
