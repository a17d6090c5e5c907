"use client";
// Leaving the editor with unsaved changes asks first. Closing or reloading the
// tab goes through the browser's own beforeunload prompt; a click on an in-app
// link (the sidebar, a breadcrumb) is held back until the user confirms,
// because the app router offers no hook to veto a navigation; the Back button
// steps off a sentinel history entry and asks the same (components/lib/back-guard.ts).
// Shared by the mock editor and the API tester's environment editor.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import * as backGuard from "@/components/lib/back-guard";

/** Where the user wanted to go: an in-app link's address, or back in history. */
export type LeaveTarget = { kind: "link"; href: string } | { kind: "back" };

export function useUnsavedGuard(dirty: boolean) {
  const router = useRouter();
  const [target, setTarget] = useState<LeaveTarget | null>(null);
  // Set once the user chose to leave: the page may unload on the way (Back to another site) and must not ask again.
  const leaving = useRef(false);
  const url = `${usePathname()}?${useSearchParams().toString()}`;

  useEffect(() => {
    if (!dirty) {
      // Clean (again): a sentinel left on top (saved, undone, or reloaded after "leave") goes away.
      void backGuard.disarm();
      return;
    }
    leaving.current = false;
    backGuard.arm(() => setTarget({ kind: "back" }));
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (leaving.current) return;
      e.preventDefault();
      // Older Chromium versions still need returnValue set to show the prompt.
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>("a[href]") : null;
      if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const to = new URL(link.href, window.location.href);
      // Another site unloads this page, so beforeunload asks; the same path only changes the query (a tab).
      if (to.origin !== window.location.origin || to.pathname === window.location.pathname) return;
      e.preventDefault();
      e.stopPropagation();
      setTarget({ kind: "link", href: to.pathname + to.search + to.hash });
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    // Capture on window runs before React's listeners on the document, so next/link never sees the click.
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
      void backGuard.disarm();
    };
  }, [dirty]);

  // A tab change replaces the current history entry (the sentinel) through the router.
  useEffect(() => {
    if (dirty) backGuard.remark();
  }, [dirty, url]);

  /** Takes the sentinel away before the editor itself moves on (after a save, or to another mock), so Back later skips nothing. */
  const release = useCallback(() => backGuard.disarm(), []);

  return {
    /** Where the user wanted to go, while the question is open. */
    target,
    release,
    stay: () => {
      if (target?.kind === "back") backGuard.stay();
      setTarget(null);
    },
    leave: () => {
      leaving.current = true;
      if (target?.kind === "back") backGuard.leave();
      else if (target) {
        const href = target.href;
        void backGuard.disarm().then(() => router.push(href));
      }
      setTarget(null);
    },
  };
}

/** JSON with object keys sorted, so two drafts compare equal whatever order their keys were typed in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}
