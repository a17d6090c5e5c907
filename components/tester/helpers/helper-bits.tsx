"use client";
// Small pieces the protocol helper panels share: a labelled text field, a
// busy-aware action button, and a block of JSON to read.
import { useId, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

export function TextField({ label, value, onChange, placeholder, className, mono = true }: { label: string; value: string; onChange: (v: string) => void; placeholder?: string; className?: string; mono?: boolean }) {
  const id = useId();
  return (
    <div className={`flex min-w-0 flex-col gap-1.5 ${className ?? ""}`}>
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Input id={id} className={`h-8 ${mono ? "font-mono" : ""}`} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

export function ActionButton({ onClick, busy, disabled, children, variant = "outline" }: { onClick: () => void; busy?: boolean; disabled?: boolean; children: ReactNode; variant?: "outline" | "default" | "secondary" }) {
  return (
    <Button type="button" size="sm" variant={variant} onClick={onClick} pending={busy} disabled={disabled || busy} className="self-end">
      {children}
    </Button>
  );
}

export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <pre aria-label={label} className="max-h-80 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs whitespace-pre-wrap">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

export function Hint({ children }: { children: ReactNode }) {
  return <p className="text-xs text-muted-foreground">{children}</p>;
}
