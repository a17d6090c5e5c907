"use client";
// The runner's settings fields: collection, environment, iterations, delay
// between requests, stop at the first failure, run name and the data file.
// The runner page keeps the values and turns them into the request.
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { EnvironmentPicker } from "@/components/tester/environment-picker";
import type { CollectionSummary } from "@/server/contracts/tester-collections";
import { DataFileField, type DataFile } from "./data-file-field";
import { MAX_DELAY_MS, MAX_ITERATIONS, type RunSettings, type SettingsProblems } from "./run-request";

export interface RunSettingsFormProps {
  collections: readonly CollectionSummary[];
  collectionId: string | null;
  onCollection: (id: string) => void;
  environments: readonly { id: string; name: string }[];
  environmentId: string | null;
  onEnvironment: (id: string | null) => void;
  onManageEnvironments: () => void;
  settings: RunSettings;
  onSettings: (patch: Partial<RunSettings>) => void;
  dataFile: DataFile | null;
  onDataFile: (file: DataFile | null) => void;
  dataReadError: string | null;
  onDataReadError: (message: string) => void;
  problems: SettingsProblems;
  disabled?: boolean;
}

export function RunSettingsForm(p: RunSettingsFormProps) {
  const rows = p.dataFile?.preview.ok ? p.dataFile.preview.rowCount : 0;
  const listed = p.collectionId === null || p.collections.some((c) => c.id === p.collectionId);
  return (
    <fieldset className="flex min-w-0 flex-col gap-4" disabled={p.disabled}>
      <legend className="sr-only">Run settings</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="runner-collection">Collection</Label>
          <Select value={p.collectionId ?? ""} onValueChange={p.onCollection} disabled={p.disabled}>
            <SelectTrigger id="runner-collection">
              <SelectValue placeholder="Pick a collection" />
            </SelectTrigger>
            <SelectContent>
              {/* A collection named in the URL but past the first page of the list still shows as chosen. */}
              {!listed && p.collectionId ? <SelectItem value={p.collectionId}>This collection</SelectItem> : null}
              {p.collections.map((c) => (
                <SelectItem key={c.id} value={c.id}>
                  {c.name}
                  <span className="ml-2 text-xs text-muted-foreground">{c.requestCount === 1 ? "1 request" : `${c.requestCount} requests`}</span>
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-2">
          <span className="text-sm font-medium" aria-hidden>
            Environment
          </span>
          <EnvironmentPicker environments={p.environments} value={p.environmentId} onChange={p.onEnvironment} onManage={p.onManageEnvironments} disabled={p.disabled} className="[&_[role=combobox]]:h-9 [&_[role=combobox]]:flex-1" />
        </div>
        <Field
          label="Iterations"
          htmlFor="runner-iterations"
          error={p.problems.iterations}
          hint={p.dataFile?.preview.ok && rows > 0 ? `Blank: one per data row (${rows})` : "Blank: 1"}
        >
          {(aria) => <Input {...aria} type="number" inputMode="numeric" min={1} max={MAX_ITERATIONS} placeholder={rows > 0 ? `${rows}, one per row` : "1"} value={p.settings.iterations} onChange={(e) => p.onSettings({ iterations: e.target.value })} />}
        </Field>
        <Field label="Delay between requests (ms)" htmlFor="runner-delay" error={p.problems.delayMs} hint="Waits this long before each request after the first.">
          {(aria) => <Input {...aria} type="number" inputMode="numeric" min={0} max={MAX_DELAY_MS} step={50} value={p.settings.delayMs} onChange={(e) => p.onSettings({ delayMs: e.target.value })} />}
        </Field>
        <Field label="Run name" htmlFor="runner-name" error={p.problems.name} hint="Optional; the collection's name when blank.">
          {(aria) => <Input {...aria} maxLength={200} placeholder="e.g. Nightly smoke test" value={p.settings.name} onChange={(e) => p.onSettings({ name: e.target.value })} />}
        </Field>
        <div className="flex items-start gap-2 pt-7">
          <Checkbox id="runner-bail" checked={p.settings.bail} onCheckedChange={(v) => p.onSettings({ bail: v === true })} aria-describedby="runner-bail-hint" />
          <div className="flex flex-col gap-1">
            <Label htmlFor="runner-bail" className="font-normal">
              Stop at the first failure
            </Label>
            <p id="runner-bail-hint" className="text-xs text-muted-foreground">
              A failed test or a request that could not be sent ends the run.
            </p>
          </div>
        </div>
      </div>
      <DataFileField value={p.dataFile} onChange={p.onDataFile} readError={p.dataReadError} onReadError={p.onDataReadError} disabled={p.disabled} />
      {p.problems.data ? <p className="text-xs font-medium text-destructive">{p.problems.data}</p> : null}
    </fieldset>
  );
}
