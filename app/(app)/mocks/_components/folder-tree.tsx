"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Folder as FolderIcon, FolderPlus, Inbox, Layers, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { errorMessage } from "@/components/lib/api-error";
import { cn } from "@/components/lib/cn";
import { toastError } from "@/components/lib/toast-error";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useNamespace } from "../../_components/namespace-context";
import { DRAG_FOLDER, DRAG_MOCKS, type Folder } from "./types";

/** "all", "root" (top level) or a folder id. */
export type FolderFilter = string | null;

function childrenOf(folders: Folder[], parentId: string | null) {
  return folders.filter((f) => f.parentId === parentId).sort((a, b) => a.position - b.position);
}

/** Folders of the namespace as a tree; mocks (and folders) dropped on a folder move into it; F2 renames the focused folder. */
export function FolderTree({ value, onChange }: { value: FolderFilter; onChange: (v: FolderFilter) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.folders.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const folders = list.data?.folders ?? [];
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Folder | null>(null);
  const [deleting, setDeleting] = useState<Folder | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.folders.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
  };
  const moveMocks = useMutation(trpc.mocks.batchMove.mutationOptions({ onSuccess: (r) => (toast.success(`${r.moved} moved`), refresh()), onError: toastError }));
  const moveFolder = useMutation(trpc.folders.move.mutationOptions({ onSuccess: (f) => (toast.success(`Folder “${f.name}” moved`), refresh()), onError: toastError }));
  const remove = useMutation(
    trpc.folders.remove.mutationOptions({
      onSuccess: () => {
        toast.success("Folder deleted; its mocks moved up");
        if (deleting && value === deleting.id) onChange(null);
        setDeleting(null);
        refresh();
      },
      onError: toastError,
    }),
  );

  function drop(e: React.DragEvent, folderId: string | null) {
    e.preventDefault();
    setDropTarget(null);
    const mocks = e.dataTransfer.getData(DRAG_MOCKS);
    const folder = e.dataTransfer.getData(DRAG_FOLDER);
    if (mocks) moveMocks.mutate({ namespace, move: { ids: JSON.parse(mocks) as string[], folderId } });
    else if (folder && folder !== folderId) moveFolder.mutate({ namespace, id: folder, move: { parentId: folderId, position: 1_000_000 } });
  }

  const dropProps = (key: string, folderId: string | null) => ({
    onDragOver: (e: React.DragEvent) => {
      if (![...e.dataTransfer.types].some((t) => t === DRAG_MOCKS || t === DRAG_FOLDER)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "move";
      setDropTarget(key);
    },
    onDragLeave: () => setDropTarget((t) => (t === key ? null : t)),
    onDrop: (e: React.DragEvent) => drop(e, folderId),
  });

  const item = (key: string) =>
    cn(
      "flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
      (value ?? "__all") === key && "bg-accent font-medium",
      dropTarget === key && "ring-2 ring-primary",
    );

  function renderFolder(f: Folder, depth: number): React.ReactNode {
    return (
      <li key={f.id}>
        <div className="group flex items-center" style={{ paddingLeft: depth * 12 }}>
          <button
            type="button"
            className={item(f.id)}
            aria-current={value === f.id ? "true" : undefined}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.setData(DRAG_FOLDER, f.id);
              e.dataTransfer.effectAllowed = "move";
            }}
            onClick={() => onChange(f.id)}
            onKeyDown={(e) => {
              if (e.key === "F2") {
                e.preventDefault();
                setRenaming(f);
              }
            }}
            {...dropProps(f.id, f.id)}
          >
            <FolderIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
            <span className="truncate">{f.name}</span>
            <span className="ml-auto text-xs text-muted-foreground">{f.mockCount}</span>
          </button>
          <Button variant="ghost" size="icon-sm" className="opacity-0 group-hover:opacity-100 focus-visible:opacity-100" aria-label={`Rename folder ${f.name}`} title="Rename (F2)" onClick={() => setRenaming(f)}>
            <Pencil aria-hidden />
          </Button>
          <Button variant="ghost" size="icon-sm" className="opacity-0 group-hover:opacity-100 focus-visible:opacity-100" aria-label={`Delete folder ${f.name}`} onClick={() => setDeleting(f)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
        {childrenOf(folders, f.id).length ? <ul>{childrenOf(folders, f.id).map((c) => renderFolder(c, depth + 1))}</ul> : null}
      </li>
    );
  }

  return (
    <nav aria-label="Folders" className="flex flex-col gap-1">
      <div className="flex items-center justify-between px-2">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Folders</p>
        <Button variant="ghost" size="icon-sm" aria-label="New folder" onClick={() => setCreating(true)}>
          <FolderPlus aria-hidden />
        </Button>
      </div>
      <ul className="flex flex-col gap-0.5">
        <li>
          <button type="button" className={item("__all")} aria-current={value === null ? "true" : undefined} onClick={() => onChange(null)}>
            <Layers className="size-4 text-muted-foreground" aria-hidden /> All mocks
          </button>
        </li>
        <li>
          <button type="button" className={item("root")} aria-current={value === "root" ? "true" : undefined} onClick={() => onChange("root")} {...dropProps("root", null)}>
            <Inbox className="size-4 text-muted-foreground" aria-hidden /> Top level
          </button>
        </li>
        {childrenOf(folders, null).map((f) => renderFolder(f, 0))}
      </ul>
      <NewFolderDialog open={creating} parentId={value && value !== "root" ? value : null} onClose={() => setCreating(false)} onCreated={refresh} />
      {renaming ? <RenameFolderDialog key={renaming.id} folder={renaming} onClose={() => setRenaming(null)} onRenamed={refresh} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete folder “${deleting?.name ?? ""}”?`}
        description="Its subfolders go with it; its mocks move to the parent folder. No mock is deleted."
        confirmLabel="Delete folder"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </nav>
  );
}

function NewFolderDialog({ open, parentId, onClose, onCreated }: { open: boolean; parentId: string | null; onClose: () => void; onCreated: () => void }) {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.folders.create.mutationOptions({
      onSuccess: (f) => {
        toast.success(`Folder “${f.name}” created`);
        setName("");
        onCreated();
        onClose();
      },
    }),
  );
  return (
    <FolderNameDialog
      open={open}
      title="New folder"
      submitLabel="Create folder"
      name={name}
      onName={setName}
      error={create.error ? errorMessage(create.error) : undefined}
      pending={create.isPending}
      onClose={onClose}
      onSubmit={() => create.mutate({ namespace, folder: { name, parentId } })}
    />
  );
}

/** Renames in place (same parent); the API's message (e.g. a sibling with that name) shows under the field. */
function RenameFolderDialog({ folder, onClose, onRenamed }: { folder: Folder; onClose: () => void; onRenamed: () => void }) {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const [name, setName] = useState(folder.name);
  const rename = useMutation(
    trpc.folders.update.mutationOptions({
      onSuccess: (f) => {
        toast.success(`Folder renamed to “${f.name}”`);
        onRenamed();
        onClose();
      },
    }),
  );
  return (
    <FolderNameDialog
      open
      title={`Rename folder “${folder.name}”`}
      submitLabel="Rename folder"
      name={name}
      onName={setName}
      error={rename.error ? errorMessage(rename.error) : undefined}
      pending={rename.isPending}
      onClose={onClose}
      onSubmit={() => (name === folder.name ? onClose() : rename.mutate({ namespace, id: folder.id, folder: { name } }))}
    />
  );
}

interface FolderNameDialogProps {
  open: boolean;
  title: string;
  submitLabel: string;
  name: string;
  onName: (name: string) => void;
  error?: string;
  pending: boolean;
  onClose: () => void;
  onSubmit: () => void;
}

/** One field; Enter submits, Escape cancels. */
function FolderNameDialog({ open, title, submitLabel, name, onName, error, pending, onClose, onSubmit }: FolderNameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
        </DialogHeader>
        <form
          className="flex flex-col gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          <Field label="Folder name" htmlFor="folder-name" error={error}>
            {(aria) => <Input {...aria} value={name} onChange={(e) => onName(e.target.value)} onFocus={(e) => e.target.select()} autoFocus />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" pending={pending}>
              {submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
