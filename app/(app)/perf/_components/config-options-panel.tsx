"use client";
// The form beside the script: how the load is shaped (the script's own
// options, a fixed number of VUs for a duration, or a ramp of stages drawn
// as a chart), thresholds as metric + expression rows, __ENV values, an API
// tester environment and files the script may open(). Values here override
// the script's `export const options`, as k6's command-line flags do.
import { Plus, Trash2, Upload } from "lucide-react";
import { useRef } from "react";
import { type Control, Controller, type FieldErrors, type UseFormRegister, useFieldArray, useWatch } from "react-hook-form";
import { useQuery } from "@tanstack/react-query";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { RampChart } from "@/components/perf/ramp-chart";
import { formatBytes } from "@/components/perf/format";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { FilterChips } from "@/components/tester/filter-chips";
import { type ConfigFormValues, LOAD_SHAPES, type LoadShape, rampPoints } from "./config-form-model";

const SHAPE_LABEL: Record<LoadShape, string> = { script: "From the script", fixed: "VUs × duration", ramp: "Ramp (stages)" };
const COMMON_METRICS = ["http_req_duration", "http_req_failed", "http_reqs", "checks", "iteration_duration", "http_req_waiting", "data_received", "iterations", "vus"];
const MAX_FILE_BYTES = 10 * 1024 * 1024;

interface PanelProps {
  control: Control<ConfigFormValues>;
  register: UseFormRegister<ConfigFormValues>;
  errors: FieldErrors<ConfigFormValues>;
  namespace: string | undefined;
  files: Record<string, string>;
  onFilesChange: (files: Record<string, string>) => void;
}

function Section({ title, hint, children, action }: { title: string; hint?: React.ReactNode; children: React.ReactNode; action?: React.ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3 border-t pt-4 first:border-t-0 first:pt-0">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{title}</h3>
        {action}
      </div>
      {hint ? <p className="-mt-2 text-xs text-muted-foreground">{hint}</p> : null}
      {children}
    </section>
  );
}

export function ConfigOptionsPanel({ control, register, errors, namespace, files, onFilesChange }: PanelProps) {
  const load = useWatch({ control, name: "load" });
  const stages = useWatch({ control, name: "stages" });
  const stageRows = useFieldArray({ control, name: "stages" });
  const thresholdRows = useFieldArray({ control, name: "thresholds" });
  const envRows = useFieldArray({ control, name: "environment" });

  return (
    <div className="flex flex-col gap-5">
      <Section title="Load" hint={load === "script" ? "The script's export const options decide the load; without any, k6 runs one VU once." : "Overrides the VUs, duration and stages of the script's options."}>
        <Controller control={control} name="load" render={({ field }) => <FilterChips label="Load shape" value={field.value} onChange={field.onChange} options={LOAD_SHAPES.map((s) => ({ value: s, label: SHAPE_LABEL[s] }))} />} />
        {load === "fixed" ? (
          <div className="grid grid-cols-2 gap-3">
            <Field label="VUs" htmlFor="perf-vus" error={errors.vus?.message} hint="virtual users in parallel">
              {(aria) => <Input {...aria} inputMode="numeric" {...register("vus")} />}
            </Field>
            <Field label="Duration" htmlFor="perf-duration" error={errors.duration?.message} hint="e.g. 30s, 1m30s">
              {(aria) => <Input {...aria} className="font-mono" {...register("duration")} />}
            </Field>
          </div>
        ) : null}
        {load === "ramp" ? (
          <div className="flex flex-col gap-2">
            <RampChart points={rampPoints(stages)} />
            <ol className="flex flex-col gap-2" aria-label="Stages">
              {stageRows.fields.map((row, i) => (
                <li key={row.id} className="grid grid-cols-[1.5rem_1fr_1fr_auto] items-start gap-2">
                  <span className="pt-2 text-right text-xs text-muted-foreground tabular-nums">{i + 1}.</span>
                  <div>
                    <Input aria-label={`Stage ${i + 1} duration`} aria-invalid={errors.stages?.[i]?.duration ? true : undefined} className="h-8 font-mono text-xs" placeholder="30s" {...register(`stages.${i}.duration`)} />
                    {errors.stages?.[i]?.duration ? <p className="mt-1 text-xs text-destructive">{errors.stages[i]?.duration?.message}</p> : null}
                  </div>
                  <div>
                    <Input aria-label={`Stage ${i + 1} target VUs`} aria-invalid={errors.stages?.[i]?.target ? true : undefined} className="h-8 font-mono text-xs" inputMode="numeric" placeholder="target VUs" {...register(`stages.${i}.target`)} />
                    {errors.stages?.[i]?.target ? <p className="mt-1 text-xs text-destructive">{errors.stages[i]?.target?.message}</p> : null}
                  </div>
                  <Button type="button" variant="ghost" size="icon-sm" aria-label={`Remove stage ${i + 1}`} onClick={() => stageRows.remove(i)}>
                    <Trash2 aria-hidden />
                  </Button>
                </li>
              ))}
            </ol>
            {errors.stages?.message || errors.stages?.root?.message ? <p className="text-xs text-destructive">{errors.stages.message ?? errors.stages.root?.message}</p> : null}
            <Button type="button" variant="outline" size="sm" className="self-start" onClick={() => stageRows.append({ duration: "10s", target: "10" })}>
              <Plus aria-hidden /> Add stage
            </Button>
          </div>
        ) : null}
      </Section>

      <Section
        title="Thresholds"
        hint="A run passes only when every threshold holds, like a CI gate."
        action={
          <Button type="button" variant="ghost" size="sm" onClick={() => thresholdRows.append({ metric: "http_req_duration", expression: "p(95)<500", abortOnFail: false })}>
            <Plus aria-hidden /> Add
          </Button>
        }
      >
        <datalist id="perf-metrics">
          {COMMON_METRICS.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        {thresholdRows.fields.length ? (
          <ul className="flex flex-col gap-2" aria-label="Thresholds">
            {thresholdRows.fields.map((row, i) => (
              <li key={row.id} className="flex flex-col gap-1">
                <div className="grid grid-cols-[1fr_8rem_auto] items-center gap-2">
                  <Input aria-label={`Threshold ${i + 1} metric`} list="perf-metrics" aria-invalid={errors.thresholds?.[i]?.metric ? true : undefined} className="h-8 font-mono text-xs" placeholder="http_req_duration" {...register(`thresholds.${i}.metric`)} />
                  <Input aria-label={`Threshold ${i + 1} expression`} aria-invalid={errors.thresholds?.[i]?.expression ? true : undefined} className="h-8 font-mono text-xs" placeholder="p(95)<500" {...register(`thresholds.${i}.expression`)} />
                  <Button type="button" variant="ghost" size="icon-sm" aria-label={`Remove threshold ${i + 1}`} onClick={() => thresholdRows.remove(i)}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
                <label className="flex items-center gap-2 text-xs text-muted-foreground">
                  <input type="checkbox" className="size-3.5 accent-primary" {...register(`thresholds.${i}.abortOnFail`)} /> stop the run as soon as it fails (abortOnFail)
                </label>
                {errors.thresholds?.[i]?.metric || errors.thresholds?.[i]?.expression ? <p className="text-xs text-destructive">{errors.thresholds[i]?.metric?.message ?? errors.thresholds[i]?.expression?.message}</p> : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-xs text-muted-foreground">None: the run passes unless the script throws. Try http_req_duration p(95)&lt;500 and http_req_failed rate&lt;0.01.</p>
        )}
      </Section>

      <Section
        title="Environment (__ENV)"
        hint="Values the script reads as __ENV.NAME; anyone who can read the namespace sees them, so keep secrets in an API tester environment."
        action={
          <Button type="button" variant="ghost" size="sm" onClick={() => envRows.append({ name: "", value: "" })}>
            <Plus aria-hidden /> Add
          </Button>
        }
      >
        {envRows.fields.length ? (
          <ul className="flex flex-col gap-2" aria-label="Environment values">
            {envRows.fields.map((row, i) => (
              <li key={row.id} className="flex flex-col gap-1">
                <div className="grid grid-cols-[9rem_1fr_auto] items-center gap-2">
                  <Input aria-label={`Variable ${i + 1} name`} aria-invalid={errors.environment?.[i]?.name ? true : undefined} className="h-8 font-mono text-xs" placeholder="BASE_URL" {...register(`environment.${i}.name`)} />
                  <Input aria-label={`Variable ${i + 1} value`} className="h-8 font-mono text-xs" placeholder="value" {...register(`environment.${i}.value`)} />
                  <Button type="button" variant="ghost" size="icon-sm" aria-label={`Remove variable ${i + 1}`} onClick={() => envRows.remove(i)}>
                    <Trash2 aria-hidden />
                  </Button>
                </div>
                {errors.environment?.[i]?.name ? <p className="text-xs text-destructive">{errors.environment[i]?.name?.message}</p> : null}
              </li>
            ))}
          </ul>
        ) : null}
        <Field label="API tester environment" htmlFor="perf-environment-id" hint="Its variables (secrets too) become __ENV values at each run; the rows above win.">
          {(aria) => <Controller control={control} name="environmentId" render={({ field }) => <EnvironmentSelect id={aria.id} namespace={namespace} value={field.value} onChange={field.onChange} />} />}
        </Field>
      </Section>

      <FilesSection files={files} onChange={onFilesChange} />
    </div>
  );
}

function EnvironmentSelect({ namespace, value, onChange, id }: { namespace: string | undefined; value: string | null; onChange: (id: string | null) => void; id: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: !!namespace }));
  return (
    <select id={id} className="h-9 rounded-md border bg-background px-3 text-sm" value={value ?? ""} onChange={(e) => onChange(e.target.value || null)}>
      <option value="">None</option>
      {(list.data?.environments ?? []).map((e) => (
        <option key={e.id} value={e.id}>
          {e.name}
        </option>
      ))}
    </select>
  );
}

/** Text files the script reads with open("name") in its init context (CSV, JSON test data). */
function FilesSection({ files, onChange }: { files: Record<string, string>; onChange: (files: Record<string, string>) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const names = Object.keys(files);
  const add = async (list: FileList | null) => {
    const next = { ...files };
    for (const file of Array.from(list ?? [])) {
      if (file.size > MAX_FILE_BYTES) {
        toast.error(`${file.name} is over 10 MB`);
        continue;
      }
      next[file.name] = await file.text();
    }
    onChange(next);
    if (input.current) input.current.value = "";
  };
  return (
    <Section
      title="Files"
      hint={
        <>
          Data the script reads with <code className="font-mono">open(&quot;users.csv&quot;)</code>, e.g. into a SharedArray.
        </>
      }
      action={
        <>
          <input ref={input} type="file" multiple className="sr-only" aria-label="Add files" onChange={(e) => void add(e.target.files)} />
          <Button type="button" variant="ghost" size="sm" onClick={() => input.current?.click()}>
            <Upload aria-hidden /> Add
          </Button>
        </>
      }
    >
      {names.length ? (
        <ul className="flex flex-col gap-1" aria-label="Files">
          {names.map((name) => (
            <li key={name} className="flex items-center justify-between gap-2 text-xs">
              <span className="truncate font-mono">{name}</span>
              <span className="ml-auto text-muted-foreground">{formatBytes(new Blob([files[name]!]).size)}</span>
              <Button
                type="button"
                variant="ghost"
                size="icon-sm"
                aria-label={`Remove ${name}`}
                onClick={() => {
                  const next = { ...files };
                  delete next[name];
                  onChange(next);
                }}
              >
                <Trash2 aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
