"use client";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";

/** Shows a freshly issued secret the one time the server returns it. */
export function SecretDialog({ secret, title, description, onClose }: { secret: string | null; title: string; description: React.ReactNode; onClose: () => void }) {
  return (
    <Dialog open={secret !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent onInteractOutside={(e) => e.preventDefault()}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Alert variant="warning" title="Copy it now">
          This is the only time the secret is shown. Polymock keeps only a hash of it; if you lose it, create a new one.
        </Alert>
        <div className="flex flex-col gap-2">
          <Label htmlFor="new-secret">Secret</Label>
          <div className="flex gap-2">
            <input
              id="new-secret"
              readOnly
              value={secret ?? ""}
              onFocus={(e) => e.currentTarget.select()}
              className="h-9 min-w-0 flex-1 rounded-md border border-input bg-muted/50 px-3 font-mono text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
            />
            <CopyButton value={secret ?? ""} />
          </div>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>I have copied it</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
