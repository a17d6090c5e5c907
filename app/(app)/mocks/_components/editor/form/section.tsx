import { cn } from "@/components/lib/cn";
import type { Draft, Path } from "../draft";

export interface DraftProps {
  draft: Draft;
  set: (path: Path, value: unknown) => void;
}

/** A titled group of the mock form. */
export function FormSection({ title, description, children, className, actions }: { title: string; description?: React.ReactNode; children: React.ReactNode; className?: string; actions?: React.ReactNode }) {
  return (
    <section aria-label={title} className={cn("flex flex-col gap-4 rounded-xl border bg-card p-5", className)}>
      <div className="flex items-start justify-between gap-4">
        <div className="flex flex-col gap-1">
          <h2 className="text-base font-semibold">{title}</h2>
          {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** A small labelled input: label above, control below; the id ties them. */
export function LabeledInput({ id, label, className, ...props }: { id: string; label: string } & React.ComponentProps<"input">) {
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      <input
        id={id}
        className="flex h-9 w-full min-w-0 rounded-md border border-input bg-background px-3 py-1 text-sm shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40"
        {...props}
      />
    </div>
  );
}
