"use client";
import type { z } from "zod";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { PermissionSchema } from "@/server/contracts/common";

type Permission = z.infer<typeof PermissionSchema>;

const DESCRIPTIONS: Record<Permission, string> = {
  read: "list and view",
  write: "create and change",
  delete: "remove things",
};

/** One checkbox per permission, as a labelled group. */
export function PermissionCheckboxes({ idPrefix, value, onChange, error }: { idPrefix: string; value: Permission[]; onChange: (v: Permission[]) => void; error?: string }) {
  const toggle = (p: Permission, on: boolean) => onChange(PermissionSchema.options.filter((o) => (o === p ? on : value.includes(o))));
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${idPrefix}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium">Permissions</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {PermissionSchema.options.map((p) => (
          <div key={p} className="flex items-center gap-2">
            <Checkbox id={`${idPrefix}-${p}`} checked={value.includes(p)} onCheckedChange={(c) => toggle(p, c === true)} />
            <Label htmlFor={`${idPrefix}-${p}`} className="font-normal">
              <span className="font-medium capitalize">{p}</span> <span className="text-muted-foreground">({DESCRIPTIONS[p]})</span>
            </Label>
          </div>
        ))}
      </div>
      {error ? (
        <p id={`${idPrefix}-error`} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
