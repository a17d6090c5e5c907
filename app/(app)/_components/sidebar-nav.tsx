"use client";
// The sidebar's navigation: NAV's groups (admin ones for admins), the entry of the current page marked.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/lib/cn";
import { activeHref, NAV } from "./nav-items";
import { useNamespace } from "./namespace-context";

export function SidebarNav({ isAdmin, onNavigate }: { isAdmin: boolean; onNavigate?: () => void }) {
  const pathname = usePathname();
  const { hrefWithNs } = useNamespace();
  const current = activeHref(pathname);
  return (
    <nav aria-label="Main" className="flex flex-col gap-6">
      {NAV.filter((g) => isAdmin || !g.adminOnly).map((group) => (
        <div key={group.label} className="flex flex-col gap-1">
          <p className="px-3 pb-1 text-xs font-medium tracking-wide text-muted-foreground uppercase">{group.label}</p>
          <ul className="flex flex-col gap-0.5">
            {group.items.map(({ href, label, icon: Icon }) => {
              const active = href === current;
              return (
                <li key={href}>
                  <Link
                    href={hrefWithNs(href)}
                    onClick={onNavigate}
                    aria-current={active ? "page" : undefined}
                    className={cn(
                      "flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors outline-none",
                      "hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring",
                      active && "bg-accent text-foreground",
                    )}
                  >
                    <Icon className="size-4 shrink-0" aria-hidden />
                    {label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </nav>
  );
}
