"use client";
// One list of match conditions in the mock form. Operators show as words
// ("does not equal"); the contract's keys (not_equals, notEmpty) stay in the JSON tab.
import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { AssertAction } from "@/server/contracts/mock";
import { OPERATOR_LABELS, operatorLabel, WITHOUT_VALUE } from "../../operator-labels";
import { looseText, looseValue } from "../draft";
import { LabeledInput } from "./section";

type Row = { path?: string; assertAction: string; value?: unknown; [k: string]: unknown };

/** `match` is an older spelling of `matches`: offered only to a row that already uses it. */
const OFFERED = AssertAction.options.filter((a) => a !== "match");

/**
 * One list of conditions (body, query parameters, headers…): path, operator
 * (every assertAction of the contract) and value. `noun` names the rows for
 * screen readers and tests ("Body condition 1 path"). `noPath`: the list
 * compares one known value (an SMTP sender, subject…), so rows have no path.
 */
export function ConditionsBuilder({ idPrefix, noun, pathLabel, pathPlaceholder, rows, onChange, pathOptional, noPath }: { idPrefix: string; noun: string; pathLabel: string; pathPlaceholder: string; rows: Row[] | undefined; onChange: (rows: Row[] | undefined) => void; pathOptional?: boolean; noPath?: boolean }) {
  const list = rows ?? [];
  const update = (i: number, patch: Partial<Row>) => {
    const next = list.map((r, j) => (j === i ? { ...r, ...patch } : r));
    onChange(next);
  };
  const remove = (i: number) => {
    const next = list.filter((_, j) => j !== i);
    onChange(next.length ? next : undefined);
  };
  return (
    <div className="flex flex-col gap-2">
      {list.map((row, i) => {
        const n = i + 1;
        const id = `${idPrefix}-${i}`;
        return (
          <div key={i} className={`grid grid-cols-1 items-end gap-2 rounded-lg border bg-background/50 p-3 ${noPath ? "sm:grid-cols-[11rem_1fr_auto]" : "sm:grid-cols-[1fr_11rem_1fr_auto]"}`}>
            {noPath ? null : <LabeledInput id={`${id}-path`} label={`${noun} ${n} ${pathLabel.toLowerCase()}`} placeholder={pathPlaceholder} value={row.path ?? ""} onChange={(e) => update(i, { path: e.target.value || (pathOptional ? undefined : "") })} />}
            <div className="flex flex-col gap-1.5">
              <label htmlFor={`${id}-op`} className="text-xs font-medium text-muted-foreground">
                {noun} {n} operator
              </label>
              <Select value={row.assertAction} onValueChange={(v) => update(i, { assertAction: v, ...(WITHOUT_VALUE.has(v) ? { value: undefined } : {}) })}>
                <SelectTrigger id={`${id}-op`}>
                  <SelectValue>{operatorLabel(row.assertAction)}</SelectValue>
                </SelectTrigger>
                <SelectContent>
                  {(row.assertAction === "match" ? AssertAction.options : OFFERED).map((a) => (
                    <SelectItem key={a} value={a}>
                      {OPERATOR_LABELS[a]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            {WITHOUT_VALUE.has(row.assertAction) ? (
              <p className="pb-2 text-xs text-muted-foreground">no value needed</p>
            ) : (
              <LabeledInput id={`${id}-value`} label={`${noun} ${n} value`} placeholder="text, or JSON: 42, true, {…}" value={looseText(row.value)} onChange={(e) => update(i, { value: looseValue(e.target.value) })} />
            )}
            <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${noun.toLowerCase()} ${n}`} onClick={() => remove(i)}>
              <X aria-hidden />
            </Button>
          </div>
        );
      })}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...list, { path: pathOptional || noPath ? undefined : "", assertAction: "equals", value: "" }])}>
          <Plus aria-hidden /> Add {noun.toLowerCase()}
        </Button>
      </div>
    </div>
  );
}
