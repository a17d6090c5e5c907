"use client";
import { Boxes, ChevronsUpDown, Settings2 } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Skeleton } from "@/components/ui/skeleton";
import { useNamespace } from "./namespace-context";

export function NamespaceSwitcher({ isAdmin }: { isAdmin: boolean }) {
  const { namespaces, current, isLoading, select } = useNamespace();
  if (isLoading) return <Skeleton className="h-9 w-44" />;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" className="max-w-64 justify-between" aria-label={`Namespace: ${current?.name ?? "none"}. Switch namespace`}>
          <Boxes className="text-muted-foreground" aria-hidden />
          <span className="truncate">{current?.name ?? "No namespace"}</span>
          <ChevronsUpDown className="text-muted-foreground" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        <DropdownMenuLabel>Namespaces</DropdownMenuLabel>
        {namespaces.length ? (
          <DropdownMenuRadioGroup value={current?.name} onValueChange={select}>
            {namespaces.map((ns) => (
              <DropdownMenuRadioItem key={ns.id} value={ns.name}>
                <span className="truncate">{ns.name}</span>
                <span className="ml-auto text-xs text-muted-foreground">{ns.role ?? "admin"}</span>
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
        ) : (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">You are not a member of any namespace yet. Ask an administrator to add you.</p>
        )}
        {isAdmin ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem asChild>
              <Link href="/admin/namespaces">
                <Settings2 aria-hidden /> Manage namespaces
              </Link>
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
