// The "1–50 of 312" line with its two page buttons under a paged list. The
// list keeps its own offset (state or URL); this only shows it and asks for
// the neighbouring page.
import { ChevronLeft, ChevronRight } from "lucide-react";
import { Button } from "@/components/ui/button";

export interface PagerProps {
  offset: number;
  /** Rows on this page (the last page may be short). */
  shown: number;
  total: number;
  pageSize: number;
  onOffset(next: number): void;
  /** Button labels: lists ordered by time read better as Newer/Older. */
  labels?: { previous: string; next: string };
}

export function Pager({ offset, shown, total, pageSize, onOffset, labels = { previous: "Previous", next: "Next" } }: PagerProps) {
  return (
    <nav aria-label="Pages" className="flex items-center justify-between text-sm text-muted-foreground">
      <span>
        {shown === 0 ? 0 : offset + 1}–{offset + shown} of {total}
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - pageSize))}>
          <ChevronLeft aria-hidden /> {labels.previous}
        </Button>
        <Button variant="outline" size="sm" disabled={offset + pageSize >= total} onClick={() => onOffset(offset + pageSize)}>
          {labels.next} <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
