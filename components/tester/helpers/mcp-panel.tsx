"use client";
// The MCP panel: connect to a server (its name, version and capabilities),
// list its tools and resources, fill a form generated from a tool's input
// schema, call it and read the result (a tool error shows as such).
import { useId, useState } from "react";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { McpToolInfo, ProtocolHelperApi } from "./helper-api";
import { ActionButton, Hint, JsonBlock, TextField } from "./helper-bits";
import { formArguments, formFields, type FormField } from "./schema-form-model";

type Connected = Awaited<ReturnType<ProtocolHelperApi["mcpConnect"]>>;
type Resources = Awaited<ReturnType<ProtocolHelperApi["mcpResourcesList"]>>;
type CallResult = Awaited<ReturnType<ProtocolHelperApi["mcpToolsCall"]>>;

function FieldControl({ field, value, onChange, error }: { field: FormField; value: string; onChange: (v: string) => void; error?: string }) {
  const id = useId();
  const label = (
    <Label htmlFor={id} className="text-xs">
      {field.name}
      {field.required ? <span className="text-destructive"> *</span> : null}
      {field.description ? <span className="font-normal text-muted-foreground"> — {field.description}</span> : null}
    </Label>
  );
  const aria = { "aria-invalid": error ? (true as const) : undefined, "aria-describedby": error ? `${id}-error` : undefined };
  let control;
  if (field.kind === "boolean")
    return (
      <div className="flex items-center gap-2">
        <Checkbox id={id} checked={value === "true"} onCheckedChange={(c) => onChange(c === true ? "true" : "false")} />
        {label}
      </div>
    );
  if (field.kind === "enum")
    control = (
      <select id={id} className="h-8 rounded-md border border-input bg-background px-2 text-sm" value={value} onChange={(e) => onChange(e.target.value)} {...aria}>
        {field.required ? null : <option value="">(not set)</option>}
        {field.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  else if (field.kind === "json") control = <textarea id={id} className="h-16 rounded-md border border-input bg-background p-2 font-mono text-xs" placeholder="JSON" value={value} onChange={(e) => onChange(e.target.value)} {...aria} />;
  else control = <Input id={id} className="h-8" type={field.kind === "string" ? "text" : "number"} step={field.kind === "integer" ? 1 : "any"} value={value} onChange={(e) => onChange(e.target.value)} {...aria} />;
  return (
    <div className="flex flex-col gap-1">
      {label}
      {control}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function ToolForm({ tool, onCall, busy }: { tool: McpToolInfo; onCall: (args: Record<string, unknown>) => void; busy: boolean }) {
  const fields = formFields(tool.inputSchema);
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((f) => [f.name, f.initial])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = () => {
    const { args, errors: found } = formArguments(fields, values);
    setErrors(found);
    if (!Object.keys(found).length) onCall(args);
  };
  return (
    <form
      className="flex flex-col gap-2 rounded-md border p-3"
      aria-label={`Arguments of ${tool.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {tool.description ? <Hint>{tool.description}</Hint> : null}
      {fields.length === 0 ? <Hint>This tool takes no arguments.</Hint> : null}
      {fields.map((f) => (
        <FieldControl key={f.name} field={f} value={values[f.name] ?? ""} onChange={(v) => setValues({ ...values, [f.name]: v })} error={errors[f.name]} />
      ))}
      <ActionButton variant="default" busy={busy} onClick={submit}>
        Call {tool.name}
      </ActionButton>
    </form>
  );
}

export function McpPanel({ api }: { api: ProtocolHelperApi }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [server, setServer] = useState<Connected | null>(null);
  const [tools, setTools] = useState<McpToolInfo[]>([]);
  const [resources, setResources] = useState<Resources | null>(null);
  const [toolName, setToolName] = useState("");
  const [result, setResult] = useState<CallResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<"connect" | "call" | null>(null);
  const target = () => ({ url, headers: (token.trim() ? { Authorization: `Bearer ${token.trim()}` } : {}) as Record<string, string> });
  const tool = tools.find((t) => t.name === toolName);

  const connect = async () => {
    setBusy("connect");
    setError(null);
    setResult(null);
    try {
      const info = await api.mcpConnect(target());
      setServer(info);
      const listed = info.capabilities.tools ? (await api.mcpToolsList(target())).tools : [];
      setTools(listed);
      setToolName(listed[0]?.name ?? "");
      // Resources are extra: a server that announces them but fails to list them still shows its tools.
      setResources(info.capabilities.resources ? await api.mcpResourcesList(target()).catch(() => null) : null);
    } catch (err) {
      setError(err);
      setServer(null);
    } finally {
      setBusy(null);
    }
  };
  const call = async (args: Record<string, unknown>) => {
    setBusy("call");
    setError(null);
    try {
      setResult(await api.mcpToolsCall({ ...target(), name: toolName, arguments: args }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="flex flex-col gap-3" data-testid="mcp-panel">
      <div className="flex flex-wrap items-end gap-2">
        <TextField label="MCP server URL" value={url} onChange={setUrl} placeholder="https://example.com/mcp" className="min-w-64 flex-1" />
        <TextField label="Bearer token (optional)" value={token} onChange={setToken} className="w-56" />
        <ActionButton onClick={connect} busy={busy === "connect"} disabled={!url.trim()}>
          Connect
        </ActionButton>
      </div>
      <ApiErrorAlert error={error} title="MCP helper failed" />
      {!server && !error ? <Hint>Connect (Streamable HTTP, else HTTP+SSE) to list the server&apos;s tools and call them with a form built from each tool&apos;s input schema.</Hint> : null}
      {server ? (
        <p className="text-sm" data-testid="mcp-server">
          <span className="font-medium">{server.serverInfo?.name ?? "MCP server"}</span> {server.serverInfo?.version ? <span className="text-muted-foreground">v{server.serverInfo.version}</span> : null}{" "}
          <span className="text-xs text-muted-foreground">
            over {server.transport} · {Object.keys(server.capabilities).join(", ") || "no capabilities"}
          </span>
        </p>
      ) : null}
      {server && tools.length === 0 ? <Hint>The server offers no tools.</Hint> : null}
      {tools.length ? (
        <div className="grid gap-3 md:grid-cols-[16rem_1fr]">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${id}-tools`} className="text-xs text-muted-foreground">
              Tools ({tools.length})
            </Label>
            <select
              id={`${id}-tools`}
              size={Math.min(8, Math.max(2, tools.length))}
              className="rounded-md border border-input bg-background p-1 font-mono text-sm"
              value={toolName}
              onChange={(e) => {
                setToolName(e.target.value);
                setResult(null);
              }}
            >
              {tools.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          {tool ? <ToolForm key={tool.name} tool={tool} onCall={call} busy={busy === "call"} /> : null}
        </div>
      ) : null}
      {result ? (
        <div className="flex flex-col gap-1" data-testid="mcp-result">
          <p className={`text-sm font-medium ${result.isError ? "text-destructive" : "text-success"}`}>{result.isError ? "The tool reported an error" : "Result"}</p>
          <JsonBlock label="Tool result" value={result.structuredContent ?? result.content} />
          {result.structuredContent ? <JsonBlock label="Tool content" value={result.content} /> : null}
        </div>
      ) : null}
      {resources && (resources.resources.length || resources.resourceTemplates.length) ? (
        <div>
          <p className="text-xs font-medium text-muted-foreground">Resources</p>
          <ul className="font-mono text-xs">
            {resources.resources.map((r) => (
              <li key={r.uri}>
                {r.uri} <span className="text-muted-foreground">{r.name}</span>
              </li>
            ))}
            {resources.resourceTemplates.map((r) => (
              <li key={r.uriTemplate}>
                {r.uriTemplate} <span className="text-muted-foreground">{r.name} (template)</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
