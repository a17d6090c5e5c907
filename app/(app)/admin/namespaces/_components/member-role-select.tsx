"use client";
import type { z } from "zod";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { MemberRoleSchema } from "@/server/contracts/common";

type MemberRole = z.infer<typeof MemberRoleSchema>;

const LABELS: Record<MemberRole, string> = { owner: "Owner", editor: "Editor", viewer: "Viewer" };

export function MemberRoleSelect({ value, onChange, disabled, className, ...aria }: { value: MemberRole; onChange: (v: MemberRole) => void; disabled?: boolean; className?: string; id?: string; "aria-label"?: string }) {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as MemberRole)} disabled={disabled}>
      <SelectTrigger className={className} {...aria}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {MemberRoleSchema.options.map((r) => (
          <SelectItem key={r} value={r}>
            {LABELS[r]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
