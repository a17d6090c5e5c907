"use client";
// The GraphQL schema explorer: introspect the endpoint (the request's URL and
// headers by default), browse root fields and types as a tree, put a field's
// query into the request, and feed the query editor's completion.
import { ChevronDown, ChevronRight } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { setCompletionSchema } from "./graphql-completion-provider";
import { fieldQuery, schemaFromIntrospection } from "./graphql-completion";
import type { GraphqlSchemaInfo, ProtocolHelperApi } from "./helper-api";
import { ActionButton, Hint, TextField } from "./helper-bits";

type Operation = "query" | "mutation" | "subscription";

export function GraphqlExplorer({ api, url: requestUrl, headers, onUseQuery }: { api: ProtocolHelperApi; url: string; headers: Record<string, string>; onUseQuery: (query: string) => void }) {
  const [url, setUrl] = useState(requestUrl);
  const [info, setInfo] = useState<GraphqlSchemaInfo | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState<Record<string, boolean>>({ query: true });
  const schema = useMemo(() => (info ? schemaFromIntrospection(info.schema) : null), [info]);
  useEffect(() => setCompletionSchema(schema), [schema]);

  const introspect = async () => {
    setBusy(true);
    setError(null);
    try {
      setInfo(await api.graphqlIntrospect({ url, headers }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const section = (op: Operation, fields: GraphqlSchemaInfo["summary"]["queries"]) =>
    fields.length ? (
      <li key={op}>
        <button type="button" className="flex items-center gap-1 text-sm font-medium" aria-expanded={!!open[op]} onClick={() => setOpen({ ...open, [op]: !open[op] })}>
          {open[op] ? <ChevronDown className="size-3.5" aria-hidden /> : <ChevronRight className="size-3.5" aria-hidden />}
          {op === "query" ? "Queries" : op === "mutation" ? "Mutations" : "Subscriptions"} <span className="text-xs text-muted-foreground">({fields.length})</span>
        </button>
        {open[op] ? (
          <ul className="ml-5 flex flex-col gap-0.5 py-1">
            {fields.map((f) => (
              <li key={f.name} className="flex items-center gap-2 font-mono text-xs">
                <span title={f.description}>
                  {f.name}
                  {f.args.length ? <span className="text-muted-foreground">({f.args.map((a) => `${a.name}: ${a.type}`).join(", ")})</span> : null}: <span className="text-primary">{f.type}</span>
                </span>
                <Button type="button" size="sm" variant="ghost" className="h-6 px-2" onClick={() => schema && onUseQuery(fieldQuery(schema, op, f.name))} aria-label={`Use ${f.name} in the query`}>
                  Use
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
      </li>
    ) : null;

  return (
    <div className="flex flex-col gap-3" data-testid="graphql-explorer">
      <div className="flex flex-wrap items-end gap-2">
        <TextField label="GraphQL endpoint" value={url} onChange={setUrl} placeholder="https://api.example.com/graphql" className="min-w-64 flex-1" />
        <ActionButton onClick={introspect} busy={busy} disabled={!url.trim()}>
          Introspect
        </ActionButton>
      </div>
      <ApiErrorAlert error={error} title="Introspection failed" />
      {!info && !error ? <Hint>Introspect the endpoint to browse its schema and get completion in the query editor (the request&apos;s headers are sent along).</Hint> : null}
      {info ? (
        <div className="grid gap-4 md:grid-cols-2">
          <ul aria-label="Operations" className="flex flex-col gap-1">
            {section("query", info.summary.queries)}
            {section("mutation", info.summary.mutations)}
            {section("subscription", info.summary.subscriptions)}
          </ul>
          <div>
            <button type="button" className="flex items-center gap-1 text-sm font-medium" aria-expanded={!!open.types} onClick={() => setOpen({ ...open, types: !open.types })}>
              {open.types ? <ChevronDown className="size-3.5" aria-hidden /> : <ChevronRight className="size-3.5" aria-hidden />}
              Types <span className="text-xs text-muted-foreground">({info.summary.types.length})</span>
            </button>
            {open.types ? (
              <ul aria-label="Types" className="ml-5 flex max-h-72 flex-col gap-0.5 overflow-auto py-1 font-mono text-xs">
                {info.summary.types.map((t) => (
                  <li key={t.name}>
                    <span className="font-medium">{t.name}</span> <span className="text-muted-foreground">{t.kind.toLowerCase()}</span>
                    {t.fields?.length ? <span className="text-muted-foreground"> {`{ ${t.fields.join(", ")} }`}</span> : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
