"use client";
// The load test editor: name and description, the k6 script in Monaco beside
// the options form, and Save (Ctrl/Cmd+S) and Run (Ctrl/Cmd+Enter). Run saves
// first, so every run belongs to the load test's history and trend, then
// opens the live result. A script the API refuses is shown where it is wrong:
// the message with its line and column, the editor's cursor moved there.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Play, Save } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { stableJson, useUnsavedGuard } from "@/components/lib/use-unsaved-guard";
import { K6ScriptEditor, type K6ScriptEditorHandle, type ScriptProblem } from "@/components/perf/k6-script-editor";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CreatePerfConfigInput, type PerfConfigView } from "@/server/contracts/perf-configs";
import { useNamespace } from "../../_components/namespace-context";
import { ConfigFormSchema, type ConfigFormValues, emptyForm, environmentFromForm, formFromConfig, optionsFromForm } from "./config-form-model";
import { ConfigOptionsPanel } from "./config-options-panel";
import { perfPaths } from "./paths";
import { type GeneratedScript, ScriptTools } from "./script-tools";
import { scriptProblemOf } from "./script-problem";

const isMac = () => typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

export function ConfigEditor({ config, headerExtra }: { config: PerfConfigView | null; headerExtra?: React.ReactNode }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const initial = useMemo(() => (config ? formFromConfig(config) : emptyForm()), [config]);
  const form = useForm<ConfigFormValues>({ resolver: zodResolver(ConfigFormSchema), defaultValues: initial, mode: "onTouched" });
  const [files, setFiles] = useState<Record<string, string>>(config?.files ?? {});
  const [problem, setProblem] = useState<ScriptProblem | null>(null);
  const [notice, setNotice] = useState<GeneratedScript | null>(null);
  const editor = useRef<K6ScriptEditorHandle>(null);
  // Where Run sends the run: "" lets the server choose (runner agents when any is online, else itself).
  const [runnerId, setRunnerId] = useState("");
  const runners = useQuery(trpc.runners.list.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: 15_000 }));
  const onlineRunners = (runners.data?.runners ?? []).filter((r) => r.status === "online");
  const values = useWatch({ control: form.control });
  const edited = stableJson({ ...initial, ...values }) !== stableJson(initial) || stableJson(files) !== stableJson(config?.files ?? {});
  // A new load test is always saved before it runs; leaving one asks only once it has edits.
  const dirty = !config || edited;
  const guard = useUnsavedGuard(edited);

  const payload = (v: ConfigFormValues) =>
    CreatePerfConfigInput.parse({
      name: v.name,
      description: v.description,
      script: v.script,
      options: optionsFromForm(v, config?.options ?? {}),
      environment: environmentFromForm(v),
      files,
      // Kept as they are: the editor has no field for the collections a script was generated from.
      collectionIds: config?.collectionIds ?? [],
      environmentId: v.environmentId,
    });

  const onApiError = (err: unknown) => {
    const p = scriptProblemOf(err);
    setProblem(p);
    if (!p) applyFieldErrors(err, form.setError, ["name", "description", "script"]);
  };
  const saved = (view: PerfConfigView) => {
    setProblem(null);
    void queryClient.invalidateQueries({ queryKey: trpc.perf.configs.pathKey() });
    queryClient.setQueryData(trpc.perf.configs.get.queryKey({ namespace, id: view.id }), view);
  };
  const create = useMutation(trpc.perf.configs.create.mutationOptions({ onError: onApiError }));
  const update = useMutation(trpc.perf.configs.update.mutationOptions({ onError: onApiError }));
  const run = useMutation(trpc.perf.configs.run.mutationOptions({ onError: onApiError }));
  const busy = create.isPending || update.isPending || run.isPending;

  /** Saves the form; resolves with the stored config, or null when the form or the API refused it. */
  const persist = async (): Promise<PerfConfigView | null> => {
    let result: PerfConfigView | null = null;
    await form.handleSubmit(async (v) => {
      const body = payload(v);
      try {
        result = config ? await update.mutateAsync({ namespace, id: config.id, patch: body }) : await create.mutateAsync({ namespace, config: body });
      } catch {
        result = null; // shown by onApiError
      }
    })();
    return result;
  };

  const save = async () => {
    if (busy) return;
    const view = await persist();
    if (!view) return;
    saved(view);
    toast.success(`${view.name} saved`);
    await guard.release();
    if (!config) router.replace(hrefWithNs(perfPaths.config(view.id)));
  };

  const start = async () => {
    if (busy) return;
    const view = dirty || !config ? await persist() : config;
    if (!view) return;
    if (view !== config) saved(view);
    await guard.release();
    try {
      const started = await run.mutateAsync({ namespace, id: view.id, ...(runnerId ? { runnerId } : {}) });
      void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() });
      router.push(hrefWithNs(perfPaths.result(started.id)));
    } catch {
      // Shown by onApiError; a new load test is saved by now, so it moves to its own page.
      if (!config) router.replace(hrefWithNs(perfPaths.config(view.id)));
    }
  };

  // Ctrl/Cmd+S and Ctrl/Cmd+Enter outside the editor too (Monaco binds its own); the listener calls the latest handlers.
  const keys = useRef({ save, start });
  useEffect(() => {
    keys.current = { save, start };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.defaultPrevented) return;
      // A dialog over the editor (generate, leave) owns the keyboard.
      if (document.querySelector("[role=dialog]")) return;
      if (e.key === "s") {
        e.preventDefault();
        void keys.current.save();
      } else if (e.key === "Enter") {
        e.preventDefault();
        void keys.current.start();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const replaceScript = (script: string, what: string) => {
    const before = form.getValues("script");
    form.setValue("script", script, { shouldDirty: true });
    toast.success(`Script replaced with ${what}`, { action: { label: "Undo", onClick: () => form.setValue("script", before, { shouldDirty: true }) } });
  };
  const useGenerated = (g: GeneratedScript) => {
    replaceScript(g.result.script, `the script generated from ${g.source}`);
    // Names the script must be given (secrets, undefined variables) get a row to fill in.
    const have = new Set(form.getValues("environment").map((e) => e.name));
    const missing = g.result.variables.filter((v) => v.default === null && !have.has(v.name));
    if (missing.length) form.setValue("environment", [...form.getValues("environment"), ...missing.map((v) => ({ name: v.name, value: "" }))], { shouldDirty: true });
    setNotice(g);
  };

  const key = isMac() ? "⌘" : "Ctrl";
  const error = create.error ?? update.error ?? run.error;
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="flex flex-col gap-3 lg:flex-row lg:items-end">
        <Field label="Name" htmlFor="perf-name" error={form.formState.errors.name?.message} className="lg:w-80">
          {(aria) => <Input {...aria} placeholder="e.g. Checkout under load" autoFocus={!config} {...form.register("name")} />}
        </Field>
        <Field label="Description" htmlFor="perf-description" className="flex-1">
          {(aria) => <Input {...aria} placeholder="What this load test checks" {...form.register("description")} />}
        </Field>
        <div className="flex shrink-0 gap-2">
          {headerExtra}
          <Button type="submit" variant="outline" pending={create.isPending || update.isPending} title={`Save (${key}+S)`}>
            <Save aria-hidden /> Save
          </Button>
          {onlineRunners.length ? (
            <select aria-label="Run on" className="h-9 rounded-md border bg-background px-2 text-sm" value={runnerId} onChange={(e) => setRunnerId(e.target.value)}>
              <option value="">Any runner agent</option>
              {onlineRunners.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} ({r.capacityVus - r.activeVus} VUs free)
                </option>
              ))}
            </select>
          ) : null}
          <Button type="button" onClick={() => void start()} pending={run.isPending} title={`Save and run (${key}+Enter)`}>
            <Play aria-hidden /> Run
          </Button>
        </div>
      </div>

      {problem ? (
        <Alert variant="error" title={`The script has a problem at line ${problem.line}${problem.column ? `, column ${problem.column}` : ""}`} role="alert">
          {problem.message}
        </Alert>
      ) : (
        <ApiErrorAlert error={error} />
      )}
      {notice ? (
        <Alert variant={notice.result.warnings.length ? "warning" : "success"} title={`Generated from ${notice.source}`}>
          {notice.result.warnings.length ? (
            <ul className="list-disc pl-4">
              {notice.result.warnings.map((w, i) => (
                <li key={i}>{w.message}</li>
              ))}
            </ul>
          ) : (
            <p>Everything carried over.</p>
          )}
          {notice.result.variables.length ? <p className="mt-1 text-xs">Reads __ENV: {notice.result.variables.map((v) => v.name + (v.default === null ? " (needs a value)" : "")).join(", ")}</p> : null}
          <Button type="button" variant="link" size="sm" className="h-auto self-start p-0" onClick={() => setNotice(null)}>
            Dismiss
          </Button>
        </Alert>
      ) : null}

      <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <ScriptTools namespace={namespace} onInsert={(code) => editor.current?.insert(code)} onReplace={replaceScript} onGenerated={useGenerated} />
            <p className="text-xs text-muted-foreground">
              <kbd className="rounded border px-1 font-mono">{key}+Enter</kbd> run · <kbd className="rounded border px-1 font-mono">{key}+S</kbd> save · <kbd className="rounded border px-1 font-mono">Ctrl+Space</kbd> k6 completions
            </p>
          </div>
          <Controller
            control={form.control}
            name="script"
            render={({ field, fieldState }) => (
              <>
                <K6ScriptEditor ref={editor} value={field.value} onChange={(v) => {
                    field.onChange(v);
                    // The API's complaint was about the script as it was.
                    if (problem) setProblem(null);
                    if (create.error) create.reset();
                    if (update.error) update.reset();
                    if (run.error) run.reset();
                  }} problem={problem} onRun={() => void start()} onSave={() => void save()} height="min(62vh, 640px)" />
                {fieldState.error ? <p className="text-xs text-destructive">{fieldState.error.message}</p> : null}
              </>
            )}
          />
        </div>
        <aside aria-label="Run options" className="rounded-lg border bg-card p-4">
          <ConfigOptionsPanel control={form.control} register={form.register} errors={form.formState.errors} namespace={namespace} files={files} onFilesChange={setFiles} />
        </aside>
      </div>
      <ConfirmDialog
        open={guard.target !== null}
        onOpenChange={(o) => !o && guard.stay()}
        title="Leave without saving?"
        description="This load test has changes that are not saved. They are lost if you leave now."
        confirmLabel="Leave without saving"
        onConfirm={guard.leave}
      />
    </form>
  );
}
