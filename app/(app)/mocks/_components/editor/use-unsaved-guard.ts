"use client";
// Leaving the editor with unsaved changes asks first. Closing or reloading the
// tab goes through the browser's own beforeunload prompt; a click on an in-app
// link (the sidebar, a breadcrumb) is held back until the user confirms,
// because the app router offers no hook to veto a navigation.
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";

export function useUnsavedGuard(dirty: boolean) {
  const router = useRouter();
  const [target, setTarget] = useState<string | null>(null);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older Chromium versions still need returnValue set to show the prompt.
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = e.target instanceof Element ? e.target.closest<HTMLAnchorElement>("a[href]") : null;
      if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      const url = new URL(link.href, window.location.href);
      // Another site unloads this page, so beforeunload asks; the same path only changes the query (a tab).
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      e.preventDefault();
      e.stopPropagation();
      setTarget(url.pathname + url.search + url.hash);
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    // Capture on window runs before React's listeners on the document, so next/link never sees the click.
    window.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      window.removeEventListener("click", onClick, true);
    };
  }, [dirty]);

  return {
    /** Where the user wanted to go, while the question is open. */
    target,
    stay: () => setTarget(null),
    leave: () => {
      if (target) router.push(target);
      setTarget(null);
    },
  };
}

/** JSON with object keys sorted, so two drafts compare equal whatever order their keys were typed in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}
