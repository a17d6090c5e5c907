"use client";
import { Menu } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Logo } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTitle } from "@/components/ui/dialog";
import type { MeOutput } from "@/server/contracts/auth";
import { NamespaceProvider } from "./namespace-context";
import { NamespaceSwitcher } from "./namespace-switcher";
import { SidebarNav } from "./sidebar-nav";
import { UserMenu } from "./user-menu";

export function AppShell({ me, children }: { me: MeOutput; children: React.ReactNode }) {
  const isAdmin = me.role === "admin";
  const [mobileNav, setMobileNav] = useState(false);
  return (
    <NamespaceProvider>
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-2 focus:ring-ring"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen">
        <aside className="hidden w-60 shrink-0 border-r bg-sidebar md:block">
          <div className="sticky top-0 flex h-screen flex-col gap-6 overflow-y-auto px-3 py-4">
            <Link href="/" className="rounded-md px-3 py-1 outline-none focus-visible:ring-2 focus-visible:ring-ring">
              <Logo />
            </Link>
            <SidebarNav isAdmin={isAdmin} />
          </div>
        </aside>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b bg-background/95 px-4 backdrop-blur sm:px-6">
            <Button variant="ghost" size="icon" className="md:hidden" aria-label="Open navigation" onClick={() => setMobileNav(true)}>
              <Menu aria-hidden />
            </Button>
            <NamespaceSwitcher isAdmin={isAdmin} />
            <div className="ml-auto">
              <UserMenu me={me} />
            </div>
          </header>
          <main id="main" className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6">
            {children}
          </main>
        </div>
      </div>
      <Dialog open={mobileNav} onOpenChange={setMobileNav}>
        <DialogContent className="top-0 left-0 h-full max-h-screen w-72 max-w-[85vw] translate-x-0 translate-y-0 content-start rounded-none border-r">
          <DialogTitle className="sr-only">Navigation</DialogTitle>
          <Logo />
          <SidebarNav isAdmin={isAdmin} onNavigate={() => setMobileNav(false)} />
        </DialogContent>
      </Dialog>
    </NamespaceProvider>
  );
}
