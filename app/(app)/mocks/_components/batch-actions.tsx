"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArchiveRestore, Copy, FolderInput, Tags, Trash2, X } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../_components/namespace-context";

const ROOT = "__root__";
const splitTags = (text: string) => text.split(",").map((t) => t.trim()).filter(Boolean);

function useInvalidateMocks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.folders.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
  };
}

/** What can be done to the selected mocks: delete/restore, tag, move, copy to another namespace. */
export function BatchActions({ ids, bin, onDone }: { ids: string[]; bin: boolean; onDone: () => void }) {
  const trpc = useTRPC();
  const { current } = useNamespace();
  const namespace = current?.name;
  const invalidate = useInvalidateMocks();
  const [dialog, setDialog] = useState<"delete" | "tag" | "move" | "copy" | null>(null);
  const done = (message: string) => {
    toast.success(message);
    invalidate();
    setDialog(null);
    onDone();
  };
  const remove = useMutation(trpc.mocks.batchDelete.mutationOptions({ onSuccess: (r) => done(`${r.deleted} moved to the recycle bin`), onError: toastError }));
  const restore = useMutation(trpc.mocks.batchRestore.mutationOptions({ onSuccess: (r) => done(`${r.restored} restored`), onError: toastError }));

  return (
    <div role="toolbar" aria-label="Selected mocks" className="flex flex-wrap items-center gap-2 rounded-lg border bg-muted/50 px-3 py-2">
      <span className="text-sm font-medium">{ids.length} selected</span>
      <div className="ml-auto flex flex-wrap gap-2">
        {bin ? (
          <Button size="sm" pending={restore.isPending} onClick={() => restore.mutate({ namespace, ids })}>
            <ArchiveRestore aria-hidden /> Restore
          </Button>
        ) : (
          <>
            <Button size="sm" variant="outline" onClick={() => setDialog("tag")}>
              <Tags aria-hidden /> Tag…
            </Button>
            <Button size="sm" variant="outline" onClick={() => setDialog("move")}>
              <FolderInput aria-hidden /> Move…
            </Button>
            <Button size="sm" variant="outline" onClick={() => setDialog("copy")}>
              <Copy aria-hidden /> Copy to namespace…
            </Button>
            <Button size="sm" variant="outline" className="text-destructive hover:text-destructive" onClick={() => setDialog("delete")}>
              <Trash2 aria-hidden /> Delete
            </Button>
          </>
        )}
        <Button size="sm" variant="ghost" onClick={onDone} aria-label="Clear selection">
          <X aria-hidden />
        </Button>
      </div>
      <ConfirmDialog
        open={dialog === "delete"}
        onOpenChange={(o) => !o && setDialog(null)}
        title={`Delete ${ids.length} mock${ids.length === 1 ? "" : "s"}?`}
        description="They move to the recycle bin and stop answering; you can restore them from there."
        confirmLabel="Move to recycle bin"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ namespace, ids })}
      />
      <TagDialog open={dialog === "tag"} ids={ids} onClose={() => setDialog(null)} onDone={done} />
      <MoveDialog open={dialog === "move"} ids={ids} onClose={() => setDialog(null)} onDone={done} />
      <CopyDialog open={dialog === "copy"} ids={ids} onClose={() => setDialog(null)} onDone={done} />
    </div>
  );
}

interface DialogProps {
  open: boolean;
  ids: string[];
  onClose: () => void;
  onDone: (message: string) => void;
}

function TagDialog({ open, ids, onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const [add, setAdd] = useState("");
  const [remove, setRemove] = useState("");
  const tag = useMutation(trpc.mocks.batchTags.mutationOptions({ onSuccess: (r) => onDone(`Tags updated on ${r.updated} mock${r.updated === 1 ? "" : "s"}`), onError: toastError }));
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Tag {ids.length} mocks</DialogTitle>
          <DialogDescription>Comma-separated. Removals apply first, then additions.</DialogDescription>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            tag.mutate({ namespace, change: { ids, addTags: splitTags(add), removeTags: splitTags(remove) } });
          }}
        >
          <Field label="Add tags" htmlFor="batch-add-tags">
            {(aria) => <Input {...aria} value={add} onChange={(e) => setAdd(e.target.value)} placeholder="checkout, v2" />}
          </Field>
          <Field label="Remove tags" htmlFor="batch-remove-tags">
            {(aria) => <Input {...aria} value={remove} onChange={(e) => setRemove(e.target.value)} />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" pending={tag.isPending} disabled={!splitTags(add).length && !splitTags(remove).length}>
              Apply tags
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function MoveDialog({ open, ids, onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const folders = useQuery(trpc.folders.list.queryOptions({ namespace }, { enabled: open && !!namespace }));
  const [target, setTarget] = useState(ROOT);
  const move = useMutation(trpc.mocks.batchMove.mutationOptions({ onSuccess: (r) => onDone(`${r.moved} moved`), onError: toastError }));
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Move {ids.length} mocks</DialogTitle>
          <DialogDescription>Folders only organise mocks; moving one does not change how it answers.</DialogDescription>
        </DialogHeader>
        <Field label="Folder" htmlFor="batch-move-folder">
          {(aria) => (
            <Select value={target} onValueChange={setTarget}>
              <SelectTrigger {...aria}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={ROOT}>Top level</SelectItem>
                {(folders.data?.folders ?? []).map((f) => (
                  <SelectItem key={f.id} value={f.id}>
                    {f.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </Field>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button pending={move.isPending} onClick={() => move.mutate({ namespace, move: { ids, folderId: target === ROOT ? null : target } })}>
            Move
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function CopyDialog({ open, ids, onClose, onDone }: DialogProps) {
  const trpc = useTRPC();
  const { namespaces, current } = useNamespace();
  const targets = namespaces.filter((n) => n.name !== current?.name && n.permissions.includes("write"));
  const [target, setTarget] = useState("");
  const copy = useMutation(trpc.mocks.copyToNamespace.mutationOptions({ onSuccess: (r) => onDone(`${r.count} copied to ${target}`), onError: toastError }));
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Copy {ids.length} mocks to another namespace</DialogTitle>
          <DialogDescription>Copies keep their id when it is free there; they land at the top level.</DialogDescription>
        </DialogHeader>
        {targets.length ? (
          <Field label="Target namespace" htmlFor="copy-target">
            {(aria) => (
              <Select value={target} onValueChange={setTarget}>
                <SelectTrigger {...aria}>
                  <SelectValue placeholder="Choose a namespace" />
                </SelectTrigger>
                <SelectContent>
                  {targets.map((n) => (
                    <SelectItem key={n.id} value={n.name}>
                      {n.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </Field>
        ) : (
          <p className="text-sm text-muted-foreground">You cannot write to any other namespace.</p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!target}
            pending={copy.isPending}
            onClick={() => current && copy.mutate({ sourceNamespace: current.name, targetNamespace: target, mockIds: ids })}
          >
            Copy
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
