"use client";
import { Plus, X } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { looseText, looseValue } from "../draft";
import { LabeledInput } from "./section";

type Pair = { key: string; value: string };

function pairsOfHeaders(record: unknown): Pair[] {
  if (!record || typeof record !== "object") return [];
  return Object.entries(record as Record<string, unknown>).flatMap(([key, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ key, value: String(value) })));
}

function pairsOfValues(record: unknown): Pair[] {
  if (!record || typeof record !== "object") return [];
  return Object.entries(record as Record<string, unknown>).map(([key, value]) => ({ key, value: looseText(value) }));
}

/**
 * Rows of name and value, edited as text. `kind` says what they become:
 * "headers" — a name maps to the list of its values (a repeated name is
 * another value); "values" — a name maps to one value (JSON when it reads as JSON);
 * "strings" — a name maps to its text as typed.
 */
export function KeyValueList({ idPrefix, noun, keyLabel, valueLabel, kind, record, onChange, valuePlaceholder }: { idPrefix: string; noun: string; keyLabel: string; valueLabel: string; kind: "headers" | "values" | "strings"; record: unknown; onChange: (record: Record<string, unknown> | undefined) => void; valuePlaceholder?: string }) {
  // Rows are local so a half-typed row (no name yet) is not lost; the record follows them.
  const [pairs, setPairs] = useState<Pair[]>(() => (kind === "headers" ? pairsOfHeaders(record) : pairsOfValues(record)));
  const commit = (next: Pair[]) => {
    setPairs(next);
    const out: Record<string, unknown> = {};
    for (const { key, value } of next) {
      if (!key) continue;
      if (kind === "headers") out[key] = [...((out[key] as string[] | undefined) ?? []), value];
      else out[key] = kind === "strings" ? value : looseValue(value);
    }
    onChange(Object.keys(out).length ? out : undefined);
  };
  return (
    <div className="flex flex-col gap-2">
      {pairs.map((p, i) => (
        <div key={i} className="grid grid-cols-[1fr_1fr_auto] items-end gap-2">
          <LabeledInput id={`${idPrefix}-${i}-key`} label={`${noun} ${i + 1} ${keyLabel}`} value={p.key} onChange={(e) => commit(pairs.map((q, j) => (j === i ? { ...q, key: e.target.value } : q)))} />
          <LabeledInput id={`${idPrefix}-${i}-value`} label={`${noun} ${i + 1} ${valueLabel}`} placeholder={valuePlaceholder} value={p.value} onChange={(e) => commit(pairs.map((q, j) => (j === i ? { ...q, value: e.target.value } : q)))} />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${noun.toLowerCase()} ${i + 1}`} onClick={() => commit(pairs.filter((_, j) => j !== i))}>
            <X aria-hidden />
          </Button>
        </div>
      ))}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => setPairs([...pairs, { key: "", value: "" }])}>
          <Plus aria-hidden /> Add {noun.toLowerCase()}
        </Button>
      </div>
    </div>
  );
}
