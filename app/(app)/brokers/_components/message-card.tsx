"use client";
// One peeked message: its body (pretty-printed when it is JSON) and what came
// with it (properties, headers, key, offset).
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function MessageCard({ title, badges, body, meta }: { title: string; badges: (string | null)[]; body: string | null; meta: Record<string, unknown> }) {
  return (
    <li className="rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{title}</span>
        {badges.filter(Boolean).map((b) => (
          <Badge key={b} variant="outline">
            {b}
          </Badge>
        ))}
        {body !== null ? <CopyButton value={body} label="Copy body" className="ml-auto" /> : null}
      </div>
      <pre className="mt-2 max-h-64 overflow-auto rounded bg-muted/60 p-2 font-mono text-xs whitespace-pre-wrap break-all">{body === null ? "(null)" : pretty(body)}</pre>
      {Object.keys(meta).length ? (
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          {Object.entries(meta).map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-muted-foreground">{k}</dt>
              <dd className="font-mono break-all">{typeof v === "string" ? v : JSON.stringify(v)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}
