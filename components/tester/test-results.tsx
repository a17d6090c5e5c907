"use client";
// pm.test outcomes with a passed/failed/skipped filter and each failure's
// message; a script that could not run (syntax error, timeout, memory) is
// shown above them. Used under a response and in a run's expanded rows.
import { CircleCheck, CircleMinus, CircleX } from "lucide-react";
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import { Alert } from "@/components/ui/alert";
import type { ScriptError, ScriptTest } from "@/server/contracts/tester-execution";
import { FilterChips } from "./filter-chips";

type Filter = "all" | ScriptTest["status"];
const ICON = { passed: CircleCheck, failed: CircleX, skipped: CircleMinus } as const;
const COLOR = { passed: "text-success", failed: "text-destructive", skipped: "text-muted-foreground" } as const;
const KIND: Record<ScriptError["kind"], string> = { syntax: "Syntax error", runtime: "Error", timeout: "Time limit reached", memory: "Memory limit reached", output: "Output limit reached" };

export interface LabelledScriptError extends ScriptError {
  /** "Pre-request script", "Test script". */
  script: string;
}

export function TestResults({ tests, errors = [], empty = "No tests ran. Add pm.test(…) calls in the Tests script." }: { tests: readonly ScriptTest[]; errors?: readonly LabelledScriptError[]; empty?: string }) {
  const [filter, setFilter] = useState<Filter>("all");
  const count = (s: Filter) => (s === "all" ? tests.length : tests.filter((t) => t.status === s).length);
  const shown = filter === "all" ? tests : tests.filter((t) => t.status === filter);
  return (
    <div className="flex flex-col gap-3">
      {errors.map((e, i) => (
        <Alert key={i} variant="error" title={`${e.script}: ${KIND[e.kind]}${e.line ? ` at line ${e.line}${e.column ? `:${e.column}` : ""}` : ""}`}>
          <span className="font-mono text-xs">{e.message}</span>
        </Alert>
      ))}
      {tests.length ? (
        <>
          <FilterChips label="Show tests" value={filter} onChange={setFilter} options={(["all", "passed", "failed", "skipped"] as const).map((f) => ({ value: f, label: `${f[0].toUpperCase()}${f.slice(1)} (${count(f)})` }))} />
          <ul className="flex flex-col divide-y rounded-md border" aria-label="Tests">
            {shown.map((t, i) => {
              const Icon = ICON[t.status];
              return (
                <li key={`${i}-${t.name}`} className="flex items-start gap-3 px-3 py-2 text-sm">
                  <Icon className={cn("mt-0.5 size-4 shrink-0", COLOR[t.status])} aria-hidden />
                  <span className={cn("w-14 shrink-0 text-xs font-semibold uppercase", COLOR[t.status])}>{t.status}</span>
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <span className="break-words">{t.name}</span>
                    {t.error ? <span className="font-mono text-xs break-words text-destructive">{t.error}</span> : null}
                  </div>
                </li>
              );
            })}
            {shown.length === 0 ? <li className="px-3 py-4 text-center text-sm text-muted-foreground">No {filter} tests.</li> : null}
          </ul>
        </>
      ) : errors.length ? null : (
        <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">{empty}</p>
      )}
    </div>
  );
}
