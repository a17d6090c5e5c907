"use client";
// The stores page: the global store or one chain's, its keys listed, set, edited and deleted.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Database, Pencil, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../_components/namespace-context";
import { useUrlParams } from "../../mocks/_components/use-url-params";

const GLOBAL = "__global__";

/** One key of a store and its value. */
type Entry = [key: string, value: unknown];

/** Text typed as a value: JSON when it parses (numbers, objects…), else the text. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
const textOf = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));

/** The namespace's global store and its chain stores (?chain=<id> opens one): read, set and delete keys. */
export function StoresPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const url = useUrlParams();
  const which = url.get("chain") || GLOBAL;
  const setWhich = (v: string) => url.set({ chain: v === GLOBAL ? null : v });
  const [otherChain, setOtherChain] = useState("");
  const chainId = which === GLOBAL ? undefined : which;
  const chains = useQuery(trpc.stores.chains.queryOptions({ namespace }, { enabled: !!namespace }));
  const store = useQuery(trpc.stores.get.queryOptions({ namespace, chainId }, { enabled: !!namespace }));
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [editing, setEditing] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.stores.pathKey() });
  const set = useMutation(
    trpc.stores.set.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Saved “${r.key}”`);
        setKey("");
        setValue("");
        setEditing(null);
        refresh();
      },
    }),
  );
  const remove = useMutation(trpc.stores.remove.mutationOptions({ onSuccess: () => (toast.success("Key deleted"), refresh()), onError: toastError }));
  const chainIds = [...new Set([...(chains.data?.chainIds ?? []), ...(chainId ? [chainId] : [])])];
  const storeName = chainId ? `chain “${chainId}”` : "the global store";
  const columns: DataColumn<Entry>[] = [
    { id: "key", header: "Key", className: "font-mono text-xs font-medium", cell: ([k]) => k },
    { id: "value", header: "Value", className: "max-w-xl truncate font-mono text-xs", cell: ([, v]) => JSON.stringify(v) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: ([k, v]) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Edit ${k}`} onClick={() => (setEditing(k), setKey(k), setValue(textOf(v)))}>
            <Pencil aria-hidden /> Edit
          </Button>
          <Button variant="ghost" size="icon-sm" aria-label={`Delete ${k}`} onClick={() => remove.mutate({ namespace, chainId, key: k })}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Stores"
        description={<>State that mocks share: templates read <code className="font-mono text-xs">$.gS.key</code> from the global store and <code className="font-mono text-xs">$.cS.key</code> from their chain&apos;s; <code className="font-mono text-xs">extract</code> writes them.</>}
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor="store-which" className="text-sm font-medium">
            Store
          </label>
          <Select value={which} onValueChange={setWhich}>
            <SelectTrigger id="store-which" className="w-64">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={GLOBAL}>Global store</SelectItem>
              {chainIds.map((c) => (
                <SelectItem key={c} value={c}>
                  Chain {c}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (otherChain.trim()) setWhich(otherChain.trim());
            setOtherChain("");
          }}
        >
          <Field label="Open chain by id" htmlFor="store-chain-id">
            {(aria) => <Input {...aria} value={otherChain} onChange={(e) => setOtherChain(e.target.value)} className="w-56" placeholder="checkout-flow" />}
          </Field>
          <Button type="submit" variant="outline">
            Open chain
          </Button>
        </form>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>{chainId ? `Chain ${chainId}` : "Global store"}</CardTitle>
          <CardDescription>
            One value per key; any JSON value (text that is not JSON is stored as a string).
            {chainId ? (
              <>
                {" "}
                <Link href={hrefWithNs(`/mocks/chains/${encodeURIComponent(chainId)}`)} className="underline">
                  The chain&apos;s mocks
                </Link>
              </>
            ) : null}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <form
            aria-label={`Set a value in ${storeName}`}
            className="grid gap-2 sm:grid-cols-[14rem_1fr_auto] sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              set.mutate({ namespace, chainId, key, value: valueOf(value) });
            }}
          >
            <Field label="Key" htmlFor="store-key" error={set.error?.data?.fieldErrors?.key}>
              {(aria) => <Input {...aria} value={key} onChange={(e) => setKey(e.target.value)} readOnly={editing !== null} />}
            </Field>
            <Field label="Value" htmlFor="store-value">
              {(aria) => <Input {...aria} className="font-mono" value={value} onChange={(e) => setValue(e.target.value)} placeholder='42, "text", {"a": 1}' />}
            </Field>
            <div className="flex gap-2">
              <Button type="submit" pending={set.isPending} disabled={!key}>
                <Plus aria-hidden /> {editing ? "Save value" : "Set value"}
              </Button>
              {editing ? (
                <Button type="button" variant="outline" onClick={() => (setEditing(null), setKey(""), setValue(""))}>
                  Cancel
                </Button>
              ) : null}
            </div>
          </form>
          {set.error ? <ApiErrorAlert error={set.error} /> : null}
          <DataTable
            // Another store starts with an empty search.
            key={which}
            label={`Values in ${storeName}`}
            columns={columns}
            data={namespace && store.data ? Object.entries(store.data.store) : undefined}
            isLoading={store.isLoading || !namespace}
            error={store.error}
            rowKey={([k]) => k}
            search={{ label: "Search keys and values", placeholder: "Search keys and values…", text: ([k, v]) => `${k} ${JSON.stringify(v)}` }}
            empty={{
              icon: Database,
              title: `Nothing in ${storeName} yet`,
              body: (
                <>
                  Set a value above, or let a mock write one with <code className="font-mono text-xs">extract</code>, e.g. <code className="font-mono text-xs">{'{"gStore": {"lastOrder": "$.req.id"}}'}</code>.
                </>
              ),
            }}
            noMatch={{ title: "No key or value matches", body: "Try another part of the key or value." }}
          />
        </CardContent>
      </Card>
    </>
  );
}
