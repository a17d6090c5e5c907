"use client";
import * as React from "react";
import { cn } from "@/components/lib/cn";
import { Label } from "./label";

export interface FieldProps {
  label: React.ReactNode;
  /** Id of the control; the label, hint and error are tied to it. */
  htmlFor: string;
  hint?: React.ReactNode;
  error?: string;
  className?: string;
  /** Renders the control; receives the aria props to spread on it. */
  children: (aria: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => React.ReactNode;
}

/** A labelled form control with an optional hint and an error message read out with the control. */
export function Field({ label, htmlFor, hint, error, className, children }: FieldProps) {
  const hintId = hint ? `${htmlFor}-hint` : undefined;
  const errorId = error ? `${htmlFor}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children({ id: htmlFor, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
