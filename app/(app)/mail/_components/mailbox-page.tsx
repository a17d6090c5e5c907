"use client";
// The namespace's SMTP mailbox, like Mailpit: every mail its SMTP protocol
// servers received (matched by a mock or not), newest first, searchable; a
// selected mail opens beside the list. Deleting one or clearing all asks first.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { useDebounced } from "@/components/lib/use-debounced";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { cn } from "@/components/lib/cn";
import { useNamespace } from "../../_components/namespace-context";
import { MailDetail } from "./mail-detail";
import { MockBadge, ReplyBadge } from "./reply-badge";
import type { MailRow } from "./types";

const PAGE = 50;
/** New mail shows up without a reload: the list is re-read this often while the page is open. */
const REFRESH_MS = 5000;

export function MailboxPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current } = useNamespace();
  const namespace = current?.name;
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<"clear" | "one" | null>(null);
  const q = useDebounced(search.trim(), 300);
  const list = useQuery(
    trpc.smtpMailbox.list.queryOptions({ namespace, offset, limit: PAGE, search: q || undefined }, { enabled: !!namespace, placeholderData: keepPreviousData, refetchInterval: REFRESH_MS }),
  );
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.smtpMailbox.pathKey() });
  const remove = useMutation(
    trpc.smtpMailbox.remove.mutationOptions({
      onSuccess: () => (toast.success("Mail deleted"), setConfirm(null), setSelected(null), refresh()),
      onError: toastError,
    }),
  );
  const clear = useMutation(
    trpc.smtpMailbox.clear.mutationOptions({
      onSuccess: (r) => (toast.success(`${r.deleted} deleted`), setConfirm(null), setSelected(null), setOffset(0), refresh()),
      onError: toastError,
    }),
  );
  const rows = list.data?.messages;

  // Three compact columns, so the list still reads beside an open mail (Mailpit's layout).
  const columns: DataColumn<MailRow>[] = [
    {
      id: "mail",
      header: "Mail",
      className: "max-w-0 w-full",
      cell: (m) => (
        <div className="flex min-w-0 flex-col">
          <span className="truncate text-xs text-muted-foreground">
            <span className="font-medium text-foreground">{m.from || "<>"}</span> → {m.to.join(", ")}
          </span>
          <button type="button" className="truncate text-left font-medium hover:underline focus-visible:underline focus-visible:outline-none" onClick={() => setSelected(m.id)} aria-label={`Open mail ${m.subject || "(no subject)"}`}>
            {m.subject || <span className="text-muted-foreground italic">(no subject)</span>}
          </button>
        </div>
      ),
    },
    {
      id: "reply",
      header: "Reply",
      cell: (m) => (
        <div className="flex items-center gap-2">
          <ReplyBadge code={m.replyCode} />
          <MockBadge mockId={m.mockId} />
        </div>
      ),
    },
    { id: "received", header: "Received", className: "whitespace-nowrap text-muted-foreground", cell: (m) => formatRelative(m.receivedAt) },
  ];

  return (
    <>
      <PageHeader
        title="Mailbox"
        description="Mail received by this namespace's SMTP protocol servers, matched by a mock or not. Open one to see its bodies, headers and attachments."
        actions={
          <Button variant="outline" className="text-destructive hover:text-destructive" disabled={!list.data?.total} onClick={() => setConfirm("clear")}>
            <Trash2 aria-hidden /> Clear all
          </Button>
        }
      />
      <div className={cn("grid gap-6", selected && "xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]")}>
        <div className="flex min-w-0 flex-col gap-3">
          <DataTable
            label="Received mail"
            columns={columns}
            data={namespace ? rows : undefined}
            isLoading={list.isLoading || !namespace}
            error={list.error}
            rowKey={(m) => m.id}
            onOpen={(m) => setSelected(m.id)}
            rowClassName={(m) => (m.id === selected ? "bg-accent" : undefined)}
            filtered={Boolean(q)}
            toolbar={
              <Input
                type="search"
                aria-label="Search mail"
                placeholder="Search sender, recipient or subject…"
                className="max-w-sm"
                value={search}
                onChange={(e) => {
                  setSearch(e.target.value);
                  setOffset(0);
                }}
              />
            }
            empty={{
              icon: Inbox,
              title: "No mail yet",
              body: (
                <>
                  Create an SMTP protocol server for this namespace and point your application&apos;s mailer at its port. Every mail it receives shows up here; SMTP mocks (the <code className="font-mono text-xs">smtp</code> block) choose the reply.
                </>
              ),
            }}
            noMatch={{ title: "No mail matches", body: "Try another sender, recipient or part of the subject." }}
          />
          {list.data && list.data.total > PAGE ? <Pager offset={offset} shown={list.data.messages.length} total={list.data.total} pageSize={PAGE} onOffset={setOffset} labels={{ previous: "Newer", next: "Older" }} /> : null}
        </div>
        {selected && namespace ? <MailDetail key={selected} id={selected} namespace={namespace} onClose={() => setSelected(null)} onDelete={() => setConfirm("one")} /> : null}
      </div>
      <ConfirmDialog
        open={confirm === "clear"}
        onOpenChange={(open) => setConfirm(open ? "clear" : null)}
        title="Clear the mailbox?"
        description="Every received mail of this namespace is deleted, with its attachments. Mail received from now on is kept again."
        confirmLabel="Clear all"
        pending={clear.isPending}
        onConfirm={() => clear.mutate({ namespace })}
      />
      <ConfirmDialog
        open={confirm === "one"}
        onOpenChange={(open) => setConfirm(open ? "one" : null)}
        title="Delete this mail?"
        description="The mail and its attachments are deleted from the mailbox."
        confirmLabel="Delete"
        pending={remove.isPending}
        onConfirm={() => selected && remove.mutate({ namespace, id: selected })}
      />
    </>
  );
}
