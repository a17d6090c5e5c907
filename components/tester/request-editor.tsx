"use client";
// One request being edited: the URL bar, then Params · Headers · Body · Auth ·
// Scripts (Pre-request / Tests) · Settings, with counts and dots in the tab
// labels as in Postman. Ctrl/Cmd+Enter anywhere inside sends. Purely
// controlled: every change comes out through `onChange` as a whole
// RequestDefinition; the page decides when to save.
import { useId, useState } from "react";
import { cn } from "@/components/lib/cn";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { DEFAULT_REQUEST_SETTINGS, type RequestDefinition } from "@/server/contracts/tester-request";
import { AuthEditor } from "./auth-editor";
import { BodyEditor } from "./body-editor";
import type { ProtocolHelperApi } from "./helpers/helper-api";
import { ProtocolHelpers } from "./helpers/protocol-helpers";
import { KeyValueEditor, type KeyValueRow } from "./key-value-editor";
import { ScriptEditor } from "./script-editor";
import { SendShortcutScope } from "./send-shortcut";
import { SettingsEditor } from "./settings-editor";
import { UrlBar } from "./url-bar";

export type RequestEditorTab = "params" | "headers" | "body" | "auth" | "scripts" | "settings" | "helpers";

export interface RequestEditorProps {
  value: RequestDefinition;
  onChange: (next: RequestDefinition) => void;
  /** Variables in scope, for colouring `{{name}}` known/unknown. */
  variables: Record<string, string>;
  onSend: () => void;
  sending?: boolean;
  onCancel?: () => void;
  /** What "inherit" auth resolves to ("collection “Shop” (Bearer token)"). */
  inheritedAuth?: string;
  /** Controlled tab; uncontrolled (starting on Params) when absent. */
  tab?: RequestEditorTab;
  onTabChange?: (tab: RequestEditorTab) => void;
  /** Height of the body and script editors. */
  editorHeight?: number | string;
  className?: string;
  /** Server calls of the protocol helper panels (GraphQL schema, gRPC, SOAP operations, MCP); no Helpers tab without them. */
  helpers?: ProtocolHelperApi;
}

const countOf = (rows: readonly KeyValueRow[]) => rows.filter((r) => r.enabled && r.key.trim() !== "").length;


function Dot({ label }: { label: string }) {
  return (
    <>
      <span className="inline-block size-1.5 rounded-full bg-success" aria-hidden />
      <span className="sr-only">({label})</span>
    </>
  );
}

function Count({ n }: { n: number }) {
  return n ? <span className="text-xs text-success">({n})</span> : null;
}

const TAB_LIST = "h-auto w-full justify-start gap-1 overflow-x-auto rounded-none border-b bg-transparent p-0";
const TAB = "h-9 flex-none rounded-none border-b-2 border-transparent px-3 data-[state=active]:border-primary data-[state=active]:bg-transparent data-[state=active]:shadow-none";

export function RequestEditor({ value, onChange, variables, onSend, sending, onCancel, inheritedAuth, tab, onTabChange, editorHeight = 280, className, helpers }: RequestEditorProps) {
  const [ownTab, setOwnTab] = useState<RequestEditorTab>("params");
  const [scriptTab, setScriptTab] = useState<"preRequest" | "test">("preRequest");
  const current = tab ?? ownTab;
  const set = (patch: Partial<RequestDefinition>) => onChange({ ...value, ...patch });
  const s = value.settings;
  const customSettings = (Object.keys(DEFAULT_REQUEST_SETTINGS) as (keyof typeof DEFAULT_REQUEST_SETTINGS)[]).some((k) => s[k] !== DEFAULT_REQUEST_SETTINGS[k]);
  const hasPre = !!value.scripts.preRequest?.trim();
  const hasTest = !!value.scripts.test?.trim();

  return (
    <SendShortcutScope onSend={onSend} disabled={sending} className={cn("flex min-w-0 flex-col gap-3", className)}>
      <UrlBar method={value.method} url={value.url} onMethodChange={(method) => set({ method })} onUrlChange={(url) => set({ url })} onSend={onSend} sending={sending} onCancel={onCancel} variables={variables} />
      <Tabs
        value={current}
        onValueChange={(t) => {
          setOwnTab(t as RequestEditorTab);
          onTabChange?.(t as RequestEditorTab);
        }}
      >
        <TabsList aria-label="Request parts" className={TAB_LIST}>
          <TabsTrigger value="params" className={TAB}>
            Params <Count n={countOf(value.params)} />
          </TabsTrigger>
          <TabsTrigger value="headers" className={TAB}>
            Headers <Count n={countOf(value.headers)} />
          </TabsTrigger>
          <TabsTrigger value="body" className={TAB}>
            Body {value.body.mode !== "none" ? <Dot label="has a body" /> : null}
          </TabsTrigger>
          <TabsTrigger value="auth" className={TAB}>
            Auth {value.auth.type !== "inherit" && value.auth.type !== "none" ? <Dot label="set" /> : null}
          </TabsTrigger>
          <TabsTrigger value="scripts" className={TAB}>
            Scripts {hasPre || hasTest ? <Dot label="has scripts" /> : null}
          </TabsTrigger>
          <TabsTrigger value="settings" className={TAB}>
            Settings {customSettings ? <Dot label="changed" /> : null}
          </TabsTrigger>
          {helpers ? (
            <TabsTrigger value="helpers" className={TAB}>
              Helpers
            </TabsTrigger>
          ) : null}
        </TabsList>
        <TabsContent value="params" className="mt-3">
          <p className="mb-2 text-xs text-muted-foreground">Query parameters, appended to the URL when the request is sent.</p>
          <KeyValueEditor label="Query parameters" rows={value.params} onChange={(params) => set({ params })} variables={variables} />
        </TabsContent>
        <TabsContent value="headers" className="mt-3">
          <KeyValueEditor label="Headers" keyPlaceholder="Header" rows={value.headers} onChange={(headers) => set({ headers })} variables={variables} />
        </TabsContent>
        <TabsContent value="body" className="mt-3 flex flex-col gap-3">
          {value.kind === "soap" ? <SoapFields value={value} set={set} /> : null}
          <BodyEditor body={value.body} onChange={(body) => set({ body })} variables={variables} editorHeight={editorHeight} />
        </TabsContent>
        <TabsContent value="auth" className="mt-3">
          <AuthEditor auth={value.auth} onChange={(auth) => set({ auth })} variables={variables} inheritedFrom={inheritedAuth} />
        </TabsContent>
        <TabsContent value="scripts" className="mt-3">
          <Tabs value={scriptTab} onValueChange={(t) => setScriptTab(t as "preRequest" | "test")}>
            <TabsList aria-label="Scripts" className="h-8 w-auto">
              <TabsTrigger value="preRequest" className="text-xs">
                Pre-request {hasPre ? <Dot label="has a script" /> : null}
              </TabsTrigger>
              <TabsTrigger value="test" className="text-xs">
                Tests {hasTest ? <Dot label="has a script" /> : null}
              </TabsTrigger>
            </TabsList>
            <TabsContent value="preRequest" className="mt-3">
              <ScriptEditor kind="preRequest" value={value.scripts.preRequest ?? ""} onChange={(preRequest) => set({ scripts: { ...value.scripts, preRequest } })} height={editorHeight} />
            </TabsContent>
            <TabsContent value="test" className="mt-3">
              <ScriptEditor kind="test" value={value.scripts.test ?? ""} onChange={(test) => set({ scripts: { ...value.scripts, test } })} height={editorHeight} />
            </TabsContent>
          </Tabs>
        </TabsContent>
        <TabsContent value="settings" className="mt-3">
          <SettingsEditor settings={value.settings} onChange={(settings) => set({ settings })} />
        </TabsContent>
        {helpers ? (
          <TabsContent value="helpers" className="mt-3">
            <ProtocolHelpers api={helpers} value={value} onChange={onChange} />
          </TabsContent>
        ) : null}
      </Tabs>
    </SendShortcutScope>
  );
}

/** SOAP requests: the SOAPAction and the envelope's version (1.1 text/xml, 1.2 application/soap+xml). */
function SoapFields({ value, set }: { value: RequestDefinition; set: (patch: Partial<RequestDefinition>) => void }) {
  const id = useId();
  const soap = value.soap ?? { version: "1.1" as const };
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-action`} className="text-xs text-muted-foreground">
          SOAPAction
        </Label>
        <Input id={`${id}-action`} className="h-8 font-mono" value={soap.action ?? ""} onChange={(e) => set({ soap: { ...soap, action: e.target.value || undefined } })} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-version`} className="text-xs text-muted-foreground">
          SOAP version
        </Label>
        <select
          id={`${id}-version`}
          className="h-8 rounded-md border border-input bg-background px-2 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
          value={soap.version}
          onChange={(e) => set({ soap: { ...soap, version: e.target.value as "1.1" | "1.2" } })}
        >
          <option value="1.1">1.1</option>
          <option value="1.2">1.2</option>
        </select>
      </div>
    </div>
  );
}
