// HTTP methods coloured as API clients colour them (GET green, POST amber, PUT
// blue, PATCH violet, DELETE red), as text in the URL bar and as a short badge
// in the collection tree, the request tabs and the runner's results.
import { cn } from "@/components/lib/cn";

const METHOD_TEXT: Record<string, string> = {
  GET: "text-method-get",
  POST: "text-method-post",
  PUT: "text-method-put",
  PATCH: "text-method-patch",
  DELETE: "text-method-delete",
  HEAD: "text-method-head",
  OPTIONS: "text-method-options",
};

/** The text colour class of a method; custom methods stay in the muted colour. */
export function methodTextClass(method: string): string {
  return METHOD_TEXT[method.toUpperCase()] ?? "text-muted-foreground";
}

/** Tree rows are narrow: long methods are shortened the way Postman does. */
const SHORT: Record<string, string> = { DELETE: "DEL", OPTIONS: "OPT", PATCH: "PATCH" };

/** A method as a fixed-width monospace label; `short` abbreviates DELETE and OPTIONS. */
export function MethodBadge({ method, short = false, className }: { method: string; short?: boolean; className?: string }) {
  const upper = method.toUpperCase();
  return (
    <span className={cn("inline-block shrink-0 font-mono text-[11px] font-semibold tracking-tight", methodTextClass(upper), short && "w-10 text-right", className)} title={upper}>
      {short ? (SHORT[upper] ?? upper) : upper}
    </span>
  );
}
