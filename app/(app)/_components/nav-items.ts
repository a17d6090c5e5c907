// The console's sidebar: its groups and entries, and which entry a path belongs to.
import { Activity, Boxes, Braces, CalendarClock, CirclePlay, Cpu, Database, FileCode2, FileInput, FileQuestion, Gauge, History, Inbox, KeyRound, Layers, LayoutDashboard, ListChecks, type LucideIcon, Mail, Network, RadioTower, ScrollText, Send, Server, Settings2, ShieldCheck, UserRound, Users } from "lucide-react";

export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
}

export interface NavGroup {
  label: string;
  adminOnly?: boolean;
  items: NavItem[];
}

export const NAV: NavGroup[] = [
  {
    label: "Mocks",
    items: [
      { href: "/dashboard", label: "Dashboard", icon: LayoutDashboard },
      { href: "/mocks", label: "Mocks", icon: Network },
      { href: "/import", label: "Import", icon: FileInput },
      { href: "/undefined-requests", label: "Undefined requests", icon: FileQuestion },
      { href: "/logs", label: "Request log", icon: Activity },
      { href: "/mail", label: "Mailbox", icon: Inbox },
      { href: "/stores", label: "Stores", icon: Database },
      { href: "/templates", label: "Templates & files", icon: FileCode2 },
      { href: "/protocol-servers", label: "Protocol servers", icon: Server },
      { href: "/brokers", label: "Brokers", icon: RadioTower },
      { href: "/grpc", label: "gRPC protos", icon: Braces },
      { href: "/namespaces", label: "Namespace settings", icon: Settings2 },
    ],
  },
  {
    label: "API tester",
    items: [
      { href: "/tester", label: "Workspace", icon: Send },
      { href: "/tester/runner", label: "Runner", icon: CirclePlay },
      { href: "/tester/runs", label: "Runs", icon: History },
      { href: "/tester/environments", label: "Environments", icon: Layers },
      { href: "/tester/tests", label: "Tests", icon: ListChecks },
      { href: "/tester/schedules", label: "Schedules", icon: CalendarClock },
    ],
  },
  {
    label: "Performance",
    items: [
      { href: "/perf", label: "Load tests", icon: Gauge },
      { href: "/perf/schedules", label: "Load schedules", icon: CalendarClock },
      { href: "/perf/runners", label: "Runner agents", icon: Cpu },
    ],
  },
  {
    label: "Account",
    items: [
      { href: "/settings/profile", label: "Profile", icon: UserRound },
      { href: "/settings/tokens", label: "API tokens", icon: KeyRound },
    ],
  },
  {
    label: "Administration",
    adminOnly: true,
    items: [
      { href: "/admin/users", label: "Users", icon: Users },
      { href: "/admin/namespaces", label: "Namespaces", icon: Boxes },
      { href: "/admin/identity-providers", label: "Identity providers", icon: ShieldCheck },
      { href: "/admin/email", label: "E-mail", icon: Mail },
      { href: "/admin/audit", label: "Audit log", icon: ScrollText },
    ],
  },
];

/** The entry a path belongs to: the longest href that is the path or a parent of it (/tester/runs/1 is Runs, not Workspace). */
export function activeHref(pathname: string, groups: readonly NavGroup[] = NAV): string | null {
  let best: string | null = null;
  for (const { href } of groups.flatMap((g) => g.items)) {
    if ((pathname === href || pathname.startsWith(`${href}/`)) && (best === null || href.length > best.length)) best = href;
  }
  return best;
}
