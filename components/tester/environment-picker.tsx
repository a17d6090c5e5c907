"use client";
// The active environment: a select of the namespace's environments with "No
// environment", and a button to manage them (the page opens its editor).
import { Settings2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectSeparator, SelectTrigger, SelectValue } from "@/components/ui/select";

const NONE = "__none__";

export interface EnvironmentPickerProps {
  environments: readonly { id: string; name: string }[];
  /** The active environment's id; null for none. */
  value: string | null;
  onChange: (id: string | null) => void;
  onManage?: () => void;
  disabled?: boolean;
  className?: string;
}

export function EnvironmentPicker({ environments, value, onChange, onManage, disabled, className }: EnvironmentPickerProps) {
  const known = value !== null && environments.some((e) => e.id === value);
  return (
    <div className={className}>
      <div className="flex items-center gap-1">
        <Select value={known ? value : NONE} onValueChange={(v) => onChange(v === NONE ? null : v)} disabled={disabled}>
          <SelectTrigger aria-label="Environment" className="h-8 min-w-44">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={NONE}>
              <span className="text-muted-foreground">No environment</span>
            </SelectItem>
            {environments.length ? <SelectSeparator /> : null}
            {environments.map((e) => (
              <SelectItem key={e.id} value={e.id}>
                {e.name}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {onManage ? (
          <Button type="button" variant="ghost" size="icon-sm" aria-label="Manage environments" title="Manage environments" onClick={onManage}>
            <Settings2 aria-hidden />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
