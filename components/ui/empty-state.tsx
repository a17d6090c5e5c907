import type { LucideIcon } from "lucide-react";
import * as React from "react";
import { cn } from "@/components/lib/cn";

/** What a list looks like before it has anything: what goes here, and how to add the first one. */
export function EmptyState({ icon: Icon, title, children, action, className }: { icon: LucideIcon; title: string; children: React.ReactNode; action?: React.ReactNode; className?: string }) {
  return (
    <div className={cn("flex flex-col items-center gap-3 rounded-lg border border-dashed px-6 py-10 text-center", className)}>
      <div className="flex size-10 items-center justify-center rounded-full bg-muted">
        <Icon className="size-5 text-muted-foreground" aria-hidden />
      </div>
      <div className="flex max-w-md flex-col gap-1">
        <h3 className="text-sm font-semibold">{title}</h3>
        <div className="text-sm text-muted-foreground">{children}</div>
      </div>
      {action}
    </div>
  );
}
