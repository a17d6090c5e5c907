"use client";
// k6's end-of-test summary as k6 prints it, in a monospace block with Copy
// and Download, for pasting into a ticket or a CI log.
import { Download } from "lucide-react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { downloadText } from "./download";

export function SummaryText({ text, filename }: { text: string | null; filename: string }) {
  if (!text) return <p className="text-sm text-muted-foreground">The text summary is written when the run ends.</p>;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex gap-2">
        <CopyButton value={text} size="sm" label="Copy summary" />
        <Button type="button" variant="outline" size="sm" onClick={() => downloadText(filename, text)}>
          <Download aria-hidden /> Download .txt
        </Button>
      </div>
      <pre className="max-h-[32rem] overflow-auto rounded-md border bg-muted/40 p-4 font-mono text-xs leading-relaxed" data-testid="k6-summary" aria-label="k6 summary" tabIndex={0}>
        {text}
      </pre>
    </div>
  );
}
