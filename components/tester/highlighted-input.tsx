"use client";
// A one-line text input whose `{{variables}}` are coloured: known ones in the
// primary colour, unknown ones in red. The input itself is transparent over a
// mirror of its text (same font and padding) that carries the colours, and
// the mirror follows the input's horizontal scroll.
import { useRef } from "react";
import { cn } from "@/components/lib/cn";
import { splitTemplate } from "./template-variables";

export interface HighlightedInputProps extends Omit<React.ComponentProps<"input">, "value" | "onChange"> {
  value: string;
  onValueChange: (value: string) => void;
  /** Variables in scope (name → value); names not here are shown as unknown. */
  variables: Record<string, string>;
  /** Classes of the outer box (borders, background). */
  boxClassName?: string;
  /** Table cells use the compact height (h-8). */
  compact?: boolean;
}

const TEXT = "font-mono text-sm whitespace-pre";

export function HighlightedInput({ value, onValueChange, variables, className, boxClassName, compact = false, onScroll, ...props }: HighlightedInputProps) {
  // The mirror's line box must match the input's, whose text browsers centre vertically.
  const line = compact ? "px-2 leading-[30px]" : "px-3 leading-[34px]";
  const mirror = useRef<HTMLDivElement>(null);
  const follow = (el: HTMLInputElement) => {
    if (mirror.current) mirror.current.scrollLeft = el.scrollLeft;
  };
  const parts = splitTemplate(value, variables);
  return (
    <div
      className={cn(
        "relative w-full min-w-0 overflow-hidden rounded-md border border-input bg-background shadow-xs focus-within:border-ring focus-within:ring-2 focus-within:ring-ring/40",
        compact ? "h-8" : "h-9",
        boxClassName,
      )}
    >
      <div ref={mirror} aria-hidden className={cn("pointer-events-none absolute inset-0 overflow-hidden", TEXT, line)}>
        {parts.map((p, i) =>
          p.kind === "text" ? (
            <span key={i}>{p.text}</span>
          ) : (
            <span key={i} className={cn("rounded-sm", p.known ? "bg-primary/10 text-primary" : "bg-destructive/10 text-destructive")} title={p.known ? variables[p.name] : undefined}>
              {p.text}
            </span>
          ),
        )}
        {/* Keeps the mirror as wide as the input's scroll width when the text ends in spaces. */}
        <span> </span>
      </div>
      <input
        {...props}
        value={value}
        spellCheck={false}
        autoComplete="off"
        onChange={(e) => {
          onValueChange(e.target.value);
          follow(e.target);
        }}
        onScroll={(e) => {
          follow(e.currentTarget);
          onScroll?.(e);
        }}
        onKeyUp={(e) => follow(e.currentTarget)}
        onSelect={(e) => follow(e.currentTarget)}
        className={cn("relative h-full w-full bg-transparent text-transparent caret-foreground outline-none placeholder:font-sans placeholder:text-muted-foreground selection:bg-primary/25 selection:text-transparent", TEXT, line, className)}
      />
    </div>
  );
}
