"use client";
// "Load test…" on an API-tester collection or folder: how many virtual users,
// for how long, at what target rate, with which environment and (when runner
// agents are online) on which runner; Start opens the live result. A 400 that
// names the requests needing a dedicated load script (scripts, multipart or
// binary bodies) lists them here, with the choice to run without them.
// "Save as load test" stores the generated k6 script as a load test instead.
import { zodResolver } from "@hookform/resolvers/zod";
import { TRPCClientError } from "@trpc/client";
import { Gauge, Play, Save } from "lucide-react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

const LoadForm = z.object({
  vus: z.number({ error: "VUs: a whole number from 1" }).int("VUs: a whole number").min(1, "at least 1").max(5000, "at most 5000"),
  duration: z.string().trim().regex(/^(\d+(\.\d+)?(ms|s|m|h))+$/, "a duration such as 30s, 1m30s or 500ms"),
  rps: z.number({ error: "a whole number; 0 for no target" }).int("a whole number").min(0, "0 for no target").max(100_000, "at most 100000"),
  environmentId: z.string(),
  runnerId: z.string(),
});
type LoadFormValues = z.infer<typeof LoadForm>;

/** What Start and Save send: the load and where it runs ("" environment: none; "" runner: the server chooses). */
export interface CollectionLoadValues {
  perfOptions: { vus: number; duration: string; rps?: number };
  environmentId: string | null;
  runnerId?: string;
  /** Requests the user chose to leave out after a refusal. */
  excludeRequestIds: string[];
}

/** A request the API refused to load test, with why (the 400's `details[]`). */
export interface RefusedRequest {
  requestId: string;
  request: string;
  reason: string;
}

export function refusedRequestsOf(error: unknown): RefusedRequest[] {
  if (!(error instanceof TRPCClientError)) return [];
  const details = (error.data as { details?: unknown } | undefined)?.details;
  if (!Array.isArray(details)) return [];
  return details.flatMap((d: { requestId?: unknown; request?: unknown; message?: unknown }) => {
    if (typeof d?.requestId !== "string" || typeof d.request !== "string") return [];
    const message = typeof d.message === "string" ? d.message : "";
    // "<request> needs a dedicated load script: …": the name is shown apart.
    const reason = message.startsWith(`${d.request} `) ? message.slice(d.request.length + 1) : message;
    return [{ requestId: d.requestId, request: d.request, reason }];
  });
}

export interface CollectionLoadDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "collection “Shop”" or "folder “Orders” of “Shop”", for the title. */
  targetLabel: string;
  /** How many requests the selection holds (a run with none left is not offered). */
  requestCount: number;
  environments: readonly { id: string; name: string }[];
  /** The active environment, preselected. */
  defaultEnvironmentId: string | null;
  /** Online runner agents; empty hides the picker. */
  runners: readonly { id: string; name: string; freeVus: number }[];
  pending: "start" | "save" | null;
  error: unknown;
  onStart: (values: CollectionLoadValues) => void;
  onSave: (values: CollectionLoadValues) => void;
}

export function CollectionLoadDialog(props: CollectionLoadDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-w-xl">{props.open ? <LoadBody {...props} /> : null}</DialogContent>
    </Dialog>
  );
}

function LoadBody({ targetLabel, requestCount, environments, defaultEnvironmentId, runners, pending, error, onStart, onSave, onOpenChange }: CollectionLoadDialogProps) {
  const form = useForm<LoadFormValues>({
    resolver: zodResolver(LoadForm),
    defaultValues: { vus: 10, duration: "30s", rps: 0, environmentId: defaultEnvironmentId ?? "", runnerId: "" },
    mode: "onTouched",
  });
  const errors = form.formState.errors;
  const refused = refusedRequestsOf(error);
  const valuesOf = (v: LoadFormValues, exclude: string[]): CollectionLoadValues => ({
    perfOptions: { vus: v.vus, duration: v.duration, ...(v.rps > 0 ? { rps: v.rps } : {}) },
    environmentId: v.environmentId || null,
    ...(v.runnerId ? { runnerId: v.runnerId } : {}),
    excludeRequestIds: exclude,
  });
  const submit = (what: "start" | "save", exclude: string[] = []) =>
    form.handleSubmit((v) => (what === "start" ? onStart : onSave)(valuesOf(v, exclude)))();
  const remaining = requestCount - refused.length;

  return (
    <form
      noValidate
      className="flex flex-col gap-5"
      onSubmit={(e) => {
        e.preventDefault();
        void submit("start");
      }}
    >
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <Gauge className="size-5 text-muted-foreground" aria-hidden /> Load test {targetLabel}
        </DialogTitle>
        <DialogDescription>
          Its HTTP, GraphQL and SOAP requests become a k6 script: each virtual user sends them in order, again and again, for the duration. The result page shows the run live.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Virtual users" htmlFor="load-vus" error={errors.vus?.message}>
          {(aria) => <Input {...aria} type="number" min={1} max={5000} autoFocus {...form.register("vus", { valueAsNumber: true })} />}
        </Field>
        <Field label="Duration" htmlFor="load-duration" hint="30s, 5m, 1m30s" error={errors.duration?.message}>
          {(aria) => <Input {...aria} placeholder="30s" {...form.register("duration")} />}
        </Field>
        <Field label="Target rate (req/s)" htmlFor="load-rps" hint="0: as fast as the VUs go" error={errors.rps?.message}>
          {(aria) => <Input {...aria} type="number" min={0} {...form.register("rps", { valueAsNumber: true })} />}
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Environment" htmlFor="load-environment">
          {(aria) => (
            <select {...aria} className="h-9 rounded-md border bg-background px-3 text-sm" {...form.register("environmentId")}>
              <option value="">No environment</option>
              {environments.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        {runners.length ? (
          <Field label="Run on" htmlFor="load-runner">
            {(aria) => (
              <select {...aria} className="h-9 rounded-md border bg-background px-3 text-sm" {...form.register("runnerId")}>
                <option value="">Any runner agent</option>
                {runners.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name} ({r.freeVus} VUs free)
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
      </div>
      {refused.length ? (
        <Alert variant="error" title={refused.length === 1 ? "1 request needs a dedicated load script" : `${refused.length} requests need a dedicated load script`}>
          <ul className="mt-1 flex max-h-40 list-disc flex-col gap-1 overflow-y-auto pl-4" aria-label="Requests that cannot be load tested from the collection">
            {refused.map((r) => (
              <li key={r.requestId}>
                <span className="font-medium">{r.request}</span> <span className="text-foreground/80">{r.reason}</span>
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-foreground/80">Scripts, multipart and binary bodies do not run under load as they are. Write a load test for them (New load test → Generate → From an API tester request…), or run the rest without them.</p>
          {remaining > 0 ? (
            <Button type="button" variant="outline" size="sm" className="mt-2 self-start text-foreground" pending={pending === "start"} onClick={() => void submit("start", refused.map((r) => r.requestId))}>
              <Play aria-hidden /> Start without {refused.length === 1 ? "it" : "them"} ({remaining} {remaining === 1 ? "request" : "requests"})
            </Button>
          ) : null}
        </Alert>
      ) : error ? (
        <ApiErrorAlert error={error} title="The load test could not start" />
      ) : null}
      <DialogFooter className="gap-2 sm:justify-between">
        {/* After a refusal, saving leaves the refused requests out as "Start without them" does. */}
        <Button
          type="button"
          variant="ghost"
          pending={pending === "save"}
          disabled={pending !== null || (refused.length > 0 && remaining <= 0)}
          onClick={() => void submit("save", refused.map((r) => r.requestId))}
          title="Store the generated k6 script as a load test to edit, run again and schedule"
        >
          <Save aria-hidden /> {refused.length ? `Save as load test without ${refused.length === 1 ? "it" : "them"}` : "Save as load test"}
        </Button>
        <div className="flex gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" pending={pending === "start"} disabled={pending !== null}>
            <Play aria-hidden /> Start
          </Button>
        </div>
      </DialogFooter>
    </form>
  );
}
