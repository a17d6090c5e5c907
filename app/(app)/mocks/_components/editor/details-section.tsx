"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../../_components/namespace-context";
import { FormSection, LabeledInput, type DraftProps } from "./form/section";

const ROOT = "__root__";

/** The mock's id (chosen once), tags and folder. */
export function DetailsSection({ draft, set, isNew }: DraftProps & { isNew: boolean }) {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const folders = useQuery(trpc.folders.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const [tagText, setTagText] = useState(() => ((draft.tags as string[] | undefined) ?? []).join(", "));
  return (
    <FormSection title="Mock">
      <div className="grid gap-4 sm:grid-cols-3">
        <LabeledInput
          id="mock-id"
          label="Mock id"
          placeholder={isNew ? "generated when empty" : undefined}
          readOnly={!isNew}
          value={(draft.id as string) ?? ""}
          onChange={(e) => set(["id"], e.target.value || undefined)}
        />
        <LabeledInput
          id="mock-tags"
          label="Tags"
          placeholder="comma-separated"
          value={tagText}
          onChange={(e) => {
            setTagText(e.target.value);
            const tags = e.target.value.split(",").map((t) => t.trim()).filter(Boolean);
            set(["tags"], tags.length ? tags : undefined);
          }}
        />
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="mock-folder" className="text-xs text-muted-foreground">
            Folder
          </Label>
          <Select value={(draft.folderId as string | null | undefined) ?? ROOT} onValueChange={(v) => set(["folderId"], v === ROOT ? undefined : v)}>
            <SelectTrigger id="mock-folder">
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
        </div>
      </div>
    </FormSection>
  );
}
