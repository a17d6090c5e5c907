"use client";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

export interface DuplicateConflict {
  message: string;
  matchLevel: "strict" | "similar";
  existing: { id: string; summary: string };
}

/** The 409 duplicate_entity answer to a save: overwrite the existing mock, keep both, or go to it. */
export function DuplicateDialog({ conflict, pending, onOverwrite, onCreateNew, onOpenExisting, onClose }: { conflict: DuplicateConflict | null; pending: boolean; onOverwrite: () => void; onCreateNew: () => void; onOpenExisting: () => void; onClose: () => void }) {
  return (
    <Dialog open={conflict !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent role="alertdialog" className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{conflict?.matchLevel === "strict" ? "This mock already exists" : "A mock for this endpoint already exists"}</DialogTitle>
          <DialogDescription className="break-words [&_code]:break-all">
            Mock <code className="font-mono">{conflict?.existing.id}</code> answers <code className="font-mono">{conflict?.existing.summary}</code> with the same conditions
            {conflict?.matchLevel === "strict" ? " and the same response." : "."} Overwrite it (it gets a new version), save this one as a separate mock, or open the existing one.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="flex-wrap">
          <Button variant="outline" onClick={onOpenExisting}>
            Open existing mock
          </Button>
          <Button variant="outline" pending={pending} onClick={onCreateNew}>
            Create as new mock
          </Button>
          <Button pending={pending} onClick={onOverwrite}>
            Overwrite existing
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
