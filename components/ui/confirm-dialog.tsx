"use client";
import * as React from "react";
import { Button } from "./button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "./dialog";

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  destructive?: boolean;
}

/** Asks before an action that cannot be undone (or is disruptive); the confirm button names the action. */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, onConfirm, pending, destructive = true }: ConfirmDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog" className="max-w-md">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant={destructive ? "destructive" : "default"} pending={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export interface ConfirmDeleteDialogProps<T extends { name: string }> {
  /** The row asked about; the dialog is open while it is set. */
  item: T | null;
  onClose: () => void;
  /** Names the item in the title while it closes ("the result"). */
  fallbackName: string;
  description: React.ReactNode;
  confirmLabel: string;
  pending?: boolean;
  onConfirm: (item: T) => void;
}

/** "Delete <name>?" for the row a list's trash button picked. */
export function ConfirmDeleteDialog<T extends { name: string }>({ item, onClose, fallbackName, description, confirmLabel, pending, onConfirm }: ConfirmDeleteDialogProps<T>) {
  return (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(o) => (o ? undefined : onClose())}
      title={`Delete ${item?.name ?? fallbackName}?`}
      description={description}
      confirmLabel={confirmLabel}
      pending={pending}
      onConfirm={() => item && onConfirm(item)}
    />
  );
}
