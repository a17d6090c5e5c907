"use client";
// An environment's or collection's variables: the key/value editor with a
// secret toggle per row (masked, with a reveal button; stored secrets come
// back from the server as SECRET_MASK and stay masked until typed over) and
// no description column. Rows without a name are kept (so a half-typed row is
// not lost) and marked invalid; the page's save rejects them.
import { type Variable } from "@/server/contracts/tester-request";
import { KeyValueEditor, type KeyValueRow } from "./key-value-editor";

export interface VariablesTableProps {
  variables: readonly Variable[];
  onChange: (variables: Variable[]) => void;
  /** "Environment variables", "Collection variables". */
  label: string;
  className?: string;
}

export function VariablesTable({ variables, onChange, label, className }: VariablesTableProps) {
  const rows: KeyValueRow[] = variables.map((v) => ({ key: v.key, value: v.value, enabled: v.enabled, secret: v.secret }));
  const nameless = variables.filter((v) => v.key.trim() === "").length;
  return (
    <div className={className}>
      <KeyValueEditor
        label={label}
        keyPlaceholder="Variable"
        rows={rows}
        descriptions={false}
        secrets
        requireKey
        onChange={(next) => onChange(next.map((r) => ({ key: r.key, value: r.value, enabled: r.enabled, secret: r.secret ?? false })))}
      />
      <p className="mt-2 text-xs text-muted-foreground" aria-live="polite">
        {nameless ? (
          <span className="font-medium text-destructive">{nameless === 1 ? "A variable has no name" : `${nameless} variables have no name`}; give each a name before saving. </span>
        ) : null}
        Use a variable as <code className="font-mono">{"{{name}}"}</code> in URLs, headers, bodies and auth. Secret values are masked here, in history and in exports.
      </p>
    </div>
  );
}
