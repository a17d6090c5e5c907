"use client";
// The response pane: before the first send a hint, while sending a spinner
// with Cancel, after a failed send the failure's code and message, and after
// a response its status pill, time and size with tabs Body · Headers ·
// Cookies · Timing · Test results · Console, and "Save as mock".
import { Clock, CopyPlus, Loader2, SendHorizontal, X } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { ExecutedResponse, ScriptVerdict, SentRequest } from "@/server/contracts/tester-execution";
import { type ConsoleEntry, ConsoleLogs } from "./console-logs";
import { formatBytes, formatMs } from "./format";
import { ResponseBody } from "./response-body";
import { failureHint, failureTitle, statusClass } from "./response-status";
import { ResponseCookies, ResponseHeaders } from "./response-tables";
import { ResponseTiming } from "./response-timing";
import { type LabelledScriptError, TestResults } from "./test-results";

export type ResponseTab = "body" | "headers" | "cookies" | "timing" | "tests" | "console";

export interface ResponseViewerProps {
  response?: ExecutedResponse | null;
  /** The request as it went out (variables substituted, auth applied). */
  request?: SentRequest | null;
  /** Why the request could not be sent (the execute endpoint's `error`). */
  error?: { code: string; message: string } | null;
  sending?: boolean;
  onCancel?: () => void;
  preRequest?: ScriptVerdict | null;
  tests?: ScriptVerdict | null;
  /** Shown as a button when given: make a mock that answers like this response. */
  onSaveAsMock?: () => void;
  /** Creates the mock at once (no editor); shown beside Save as mock. */
  onCreateMockNow?: () => void;
  creatingMock?: boolean;
  /** Height of the body viewer. */
  bodyHeight?: number | string;
  className?: string;
}

const TAB_LIST = "h-auto w-full justify-start gap-1 overflow-x-auto rounded-none border-b bg-transparent p-0";
const TAB = "h-9 flex-none rounded-none border-b-2 border-transparent px-3 data-[state=active]:border-primary data-[state=active]:bg-transparent data-[state=active]:shadow-none";

function scriptErrors(preRequest?: ScriptVerdict | null, tests?: ScriptVerdict | null): LabelledScriptError[] {
  return [
    ...(preRequest?.error ? [{ ...preRequest.error, script: "Pre-request script" }] : []),
    ...(tests?.error ? [{ ...tests.error, script: "Test script" }] : []),
  ];
}

function consoleOf(preRequest?: ScriptVerdict | null, tests?: ScriptVerdict | null): ConsoleEntry[] {
  return [...(preRequest?.logs ?? []).map((l) => ({ ...l, source: "pre-request" })), ...(tests?.logs ?? []).map((l) => ({ ...l, source: "test" }))];
}

export function ResponseViewer({ response, request, error, sending, onCancel, preRequest, tests, onSaveAsMock, onCreateMockNow, creatingMock, bodyHeight = 360, className }: ResponseViewerProps) {
  const [tab, setTab] = useState<ResponseTab>("body");
  const allTests = [...(preRequest?.tests ?? []), ...(tests?.tests ?? [])];
  const errors = scriptErrors(preRequest, tests);
  const logs = consoleOf(preRequest, tests);
  const failed = allTests.filter((t) => t.status === "failed").length;
  const passed = allTests.filter((t) => t.status === "passed").length;

  if (sending) {
    return (
      <section aria-label="Response" aria-busy className={cn("flex flex-col items-center justify-center gap-3 py-12 text-sm text-muted-foreground", className)}>
        <Loader2 className="size-6 animate-spin" aria-hidden />
        <p role="status">Sending request…</p>
        {onCancel ? (
          <Button type="button" variant="outline" size="sm" onClick={onCancel}>
            <X aria-hidden /> Cancel
          </Button>
        ) : null}
      </section>
    );
  }

  if (!response) {
    return (
      <section aria-label="Response" className={cn("flex flex-col gap-3", className)}>
        {error ? (
          <Alert variant="error" title={failureTitle(error.code)}>
            <p>{error.message}</p>
            {failureHint(error.code) ? <p className="mt-1 text-xs opacity-90">{failureHint(error.code)}</p> : null}
            <p className="mt-1 font-mono text-xs opacity-80">code: {error.code}</p>
          </Alert>
        ) : preRequest?.skipRequest ? (
          <Alert variant="info" title="Request skipped">
            The pre-request script called pm.execution.skipRequest(), so nothing was sent.
          </Alert>
        ) : (
          <div className="flex flex-col items-center gap-3 py-12 text-center">
            <div className="flex size-10 items-center justify-center rounded-full bg-muted">
              <SendHorizontal className="size-5 text-muted-foreground" aria-hidden />
            </div>
            <p className="text-sm text-muted-foreground">
              Enter a URL and press Send <kbd className="rounded border bg-muted px-1 font-mono text-xs">Ctrl+Enter</kbd>
            </p>
          </div>
        )}
        {/* A failed send or a skip may still have run the pre-request script: its output explains a lot. */}
        {(error || preRequest) && (errors.length || logs.length || allTests.length) ? (
          <div className="flex flex-col gap-3">
            {errors.length || allTests.length ? <TestResults tests={allTests} errors={errors} /> : null}
            {logs.length ? <ConsoleLogs logs={logs} /> : null}
          </div>
        ) : null}
      </section>
    );
  }

  const totalSize = response.size.body + response.size.headers;
  return (
    <section aria-label="Response" className={cn("flex min-w-0 flex-col", className)}>
      <Tabs value={tab} onValueChange={(t) => setTab(t as ResponseTab)}>
        <div className="flex flex-wrap items-end gap-x-4 border-b">
          <TabsList aria-label="Response parts" className={cn(TAB_LIST, "w-auto flex-1 border-b-0")}>
            <TabsTrigger value="body" className={TAB}>
              Body
            </TabsTrigger>
            <TabsTrigger value="headers" className={TAB}>
              Headers <span className="text-xs text-muted-foreground">({response.headers.length})</span>
            </TabsTrigger>
            <TabsTrigger value="cookies" className={TAB}>
              Cookies {response.cookies.length ? <span className="text-xs text-muted-foreground">({response.cookies.length})</span> : null}
            </TabsTrigger>
            <TabsTrigger value="timing" className={TAB}>
              Timing
            </TabsTrigger>
            <TabsTrigger value="tests" className={TAB}>
              Test results{" "}
              {allTests.length || errors.length ? (
                <span className={cn("text-xs", failed || errors.length ? "text-destructive" : "text-success")}>
                  ({passed}/{allTests.length})
                </span>
              ) : null}
            </TabsTrigger>
            <TabsTrigger value="console" className={TAB}>
              Console {logs.length ? <span className="text-xs text-muted-foreground">({logs.length})</span> : null}
            </TabsTrigger>
          </TabsList>
          <div className="flex items-center gap-3 py-1.5 text-xs">
            <span className={cn("rounded-md border px-2 py-0.5 font-mono font-semibold", statusClass(response.status))} title="Status">
              {response.status} {response.statusText}
            </span>
            <button type="button" className="flex items-center gap-1 rounded-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring" title="Show the timing" onClick={() => setTab("timing")}>
              <Clock className="size-3.5" aria-hidden />
              <span className="font-mono">{formatMs(response.timings.totalMs)}</span>
            </button>
            <span className="font-mono text-muted-foreground" title={`Body ${formatBytes(response.size.body)}, headers ${formatBytes(response.size.headers)}`}>
              {formatBytes(totalSize)}
            </span>
            {onSaveAsMock ? (
              <Button type="button" variant="outline" size="sm" className="h-7" onClick={onSaveAsMock}>
                <CopyPlus aria-hidden /> Save as mock
              </Button>
            ) : null}
            {onCreateMockNow ? (
              <Button type="button" variant="outline" size="sm" className="h-7" onClick={onCreateMockNow} disabled={creatingMock} title="Create a mock answering this method and path with this response, without opening the editor">
                Create mock now
              </Button>
            ) : null}
          </div>
        </div>
        <TabsContent value="body" className="mt-3">
          <ResponseBody response={response} height={bodyHeight} />
        </TabsContent>
        <TabsContent value="headers" className="mt-3">
          <ResponseHeaders response={response} request={request} />
        </TabsContent>
        <TabsContent value="cookies" className="mt-3">
          <ResponseCookies cookies={response.cookies} />
        </TabsContent>
        <TabsContent value="timing" className="mt-3">
          <ResponseTiming response={response} />
        </TabsContent>
        <TabsContent value="tests" className="mt-3">
          <TestResults tests={allTests} errors={errors} />
        </TabsContent>
        <TabsContent value="console" className="mt-3">
          <ConsoleLogs logs={logs} />
        </TabsContent>
      </Tabs>
    </section>
  );
}
