"use client";
import type { z } from "zod";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { UserRoleSchema } from "@/server/contracts/common";

type Role = z.infer<typeof UserRoleSchema>;

export function RoleSelect({ value, onChange, ...aria }: { value: Role; onChange: (v: Role) => void; id: string }) {
  return (
    <Select value={value} onValueChange={(v) => onChange(v as Role)}>
      <SelectTrigger {...aria}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value="user">User</SelectItem>
        <SelectItem value="admin">Administrator</SelectItem>
      </SelectContent>
    </Select>
  );
}
