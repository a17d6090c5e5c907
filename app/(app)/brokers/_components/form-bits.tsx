"use client";
// Small pieces the Brokers screen's forms share: a text area in the house's
// input style, a labelled checkbox, and the parsing of a JSON-object field.
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";

export const TEXTAREA =
  "min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 aria-invalid:border-destructive";

export function CheckboxLine({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}

/** A JSON object typed by the user (headers, properties); empty is none. Throws a message for the field. */
export function jsonObject(text: string, what: string): Record<string, unknown> | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${what}: not valid JSON`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error(`${what}: a JSON object, e.g. {"x-trace": "abc"}`);
  return value as Record<string, unknown>;
}

/** The first problem a contract finds, as "field: message". */
export function firstIssue(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }): string | null {
  if (result.success || !result.error) return null;
  const issue = result.error.issues[0];
  return issue ? `${issue.path.map(String).join(".") || "input"}: ${issue.message}` : "invalid input";
}
