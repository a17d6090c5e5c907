"use client";
// What scripts wrote with console.log/info/warn/error/debug, in order, with
// the script it came from and a level filter.
import { useState } from "react";
import { cn } from "@/components/lib/cn";
import type { ScriptLog } from "@/server/contracts/tester-execution";
import { FilterChips } from "./filter-chips";

export interface ConsoleEntry extends ScriptLog {
  /** "pre-request", "test". */
  source?: string;
}

type Level = ScriptLog["level"];
const LEVELS: Level[] = ["log", "info", "warn", "error", "debug"];
const LEVEL_CLASS: Record<Level, string> = {
  log: "",
  info: "text-primary",
  warn: "bg-warning/10 text-warning",
  error: "bg-destructive/10 text-destructive",
  debug: "text-muted-foreground",
};

export function ConsoleLogs({ logs, empty = "Nothing was logged. console.log(…) in a script writes here." }: { logs: readonly ConsoleEntry[]; empty?: string }) {
  const [level, setLevel] = useState<Level | "all">("all");
  if (!logs.length) return <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">{empty}</p>;
  const shown = level === "all" ? logs : logs.filter((l) => l.level === level);
  return (
    <div className="flex flex-col gap-2">
      <FilterChips
        label="Log level"
        value={level}
        onChange={setLevel}
        options={(["all", ...LEVELS] as const).flatMap((l) => {
          const n = l === "all" ? logs.length : logs.filter((x) => x.level === l).length;
          return l !== "all" && n === 0 ? [] : [{ value: l, label: `${l} (${n})` }];
        })}
      />
      <ol className="flex max-h-96 flex-col overflow-y-auto rounded-md border font-mono text-xs" aria-label="Console">
        {shown.map((l, i) => (
          <li key={i} className={cn("flex gap-3 border-b px-3 py-1.5 last:border-0", LEVEL_CLASS[l.level])}>
            <span className="w-12 shrink-0 text-right text-muted-foreground tabular-nums">{Math.round(l.at)} ms</span>
            {l.source ? <span className="w-20 shrink-0 truncate text-muted-foreground">{l.source}</span> : null}
            <span className="w-10 shrink-0 uppercase opacity-80">{l.level}</span>
            <span className="min-w-0 break-words whitespace-pre-wrap">{l.message}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
