"use client";
// A boolean field of a react-hook-form form as a labelled checkbox.
import { type Control, Controller, type FieldPath, type FieldValues } from "react-hook-form";
import { Checkbox } from "./checkbox";
import { Label } from "./label";

export function CheckboxField<V extends FieldValues, O>({ control, name, label, idPrefix }: { control: Control<V, unknown, O>; name: FieldPath<V>; label: string; idPrefix: string }) {
  const id = `${idPrefix}-${name.replace(/\./g, "-")}`;
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <div className="flex items-center gap-2">
          <Checkbox id={id} checked={Boolean(field.value)} onCheckedChange={(c) => field.onChange(c === true)} />
          <Label htmlFor={id} className="font-normal">
            {label}
          </Label>
        </div>
      )}
    />
  );
}
