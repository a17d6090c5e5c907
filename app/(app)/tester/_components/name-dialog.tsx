"use client";
// One small form for the workspace's names: a new collection, a new folder,
// or saving a new request (then also which collection it goes into).
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";

export interface NameDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  label: string;
  initial: string;
  /** When given, the user also picks one of these collections. */
  collections?: readonly { id: string; name: string }[];
  pending?: boolean;
  onSubmit: (name: string, collectionId?: string) => void;
}

export function NameDialog(props: NameDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-w-md">{props.open ? <NameForm {...props} /> : null}</DialogContent>
    </Dialog>
  );
}

function NameForm({ title, label, initial, collections, pending, onSubmit, onOpenChange }: NameDialogProps) {
  const [name, setName] = useState(initial);
  const [collectionId, setCollectionId] = useState(collections?.[0]?.id ?? "");
  const missingCollection = collections !== undefined && !collectionId;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (name.trim() && !missingCollection) onSubmit(name.trim(), collectionId || undefined);
      }}
      className="flex flex-col gap-4"
    >
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{collections ? "Saved requests keep their scripts and run with their collection." : "You can rename it later from the tree."}</DialogDescription>
      </DialogHeader>
      <Field label={label} htmlFor="tester-name">
        {(aria) => <Input {...aria} value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={255} required />}
      </Field>
      {collections ? (
        collections.length ? (
          <Field label="Collection" htmlFor="tester-collection">
            {(aria) => (
              <Select value={collectionId} onValueChange={setCollectionId}>
                <SelectTrigger {...aria} aria-label="Collection">
                  <SelectValue placeholder="Pick a collection" />
                </SelectTrigger>
                <SelectContent>
                  {collections.map((c) => (
                    <SelectItem key={c.id} value={c.id}>
                      {c.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </Field>
        ) : (
          <p className="text-sm text-muted-foreground">Create a collection first (the + next to Collections).</p>
        )
      ) : null}
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" pending={pending} disabled={!name.trim() || missingCollection}>
          {collections ? "Save" : "Create"}
        </Button>
      </DialogFooter>
    </form>
  );
}
