// A row of toggle buttons choosing one filter or view ("All (4)", "Failed
// (1)"; "Pretty", "Raw", "Preview"). Each is a pressed/unpressed button in a
// labelled group, so Tab reaches them and screen readers say which is on.
import { cn } from "@/components/lib/cn";

export interface FilterChipsProps<V extends string> {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly { value: V; label: React.ReactNode }[];
  className?: string;
}

export function FilterChips<V extends string>({ label, value, onChange, options, className }: FilterChipsProps<V>) {
  return (
    <div role="group" aria-label={label} className={cn("flex flex-wrap gap-1", className)}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            "rounded-md px-2.5 py-1 text-xs font-medium outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
            value === o.value ? "bg-accent text-foreground" : "text-muted-foreground",
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
