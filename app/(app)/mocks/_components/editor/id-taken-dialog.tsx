"use client";
// A new mock whose id is already used: saving would replace that mock (as a
// new version), so the editor asks instead of doing it silently.
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";

export interface TakenId {
  id: string;
  /** The existing mock is in the recycle bin. */
  deleted: boolean;
}

export function IdTakenDialog({ taken, pending, onOverwrite, onPickAnother, onOpenExisting }: { taken: TakenId | null; pending: boolean; onOverwrite: () => void; onPickAnother: () => void; onOpenExisting: () => void }) {
  return (
    <Dialog open={taken !== null} onOpenChange={(o) => !o && onPickAnother()}>
      <DialogContent
        role="alertdialog"
        className="max-w-lg"
        // Back to the id, not to Save: picking another id is what closing means here.
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          document.getElementById("mock-id")?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>The id “{taken?.id}” is already taken</DialogTitle>
          <DialogDescription className="break-words">
            A mock with this id already exists{taken?.deleted ? " (in the recycle bin)" : ""}. Saving would replace it with this one as its next version. Pick another id, or overwrite it on purpose.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter className="flex-wrap">
          <Button variant="outline" onClick={onOpenExisting}>
            Open existing mock
          </Button>
          <Button variant="outline" onClick={onPickAnother}>
            Pick another id
          </Button>
          <Button variant="destructive" pending={pending} onClick={onOverwrite}>
            Overwrite existing
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
