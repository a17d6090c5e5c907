"use client";
// The namespace the user is working in. It lives in the `ns` query parameter,
// so a URL names exactly what it shows (links can be shared, two tabs can show
// two namespaces), and in localStorage, so a visit without the parameter opens
// the namespace the user chose last. The URL wins over localStorage; a name the
// user cannot see (deleted, membership removed) falls back to the default.
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { createContext, useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import type { NamespaceView } from "@/server/contracts/namespaces";

const STORAGE_KEY = "polymock.namespace";
const DEFAULT_NAMESPACE = "sandbox";

type Namespace = z.infer<typeof NamespaceView>;

interface NamespaceState {
  namespaces: Namespace[];
  current: Namespace | null;
  isLoading: boolean;
  select: (name: string) => void;
  /** `href` with the current namespace in its query, for links that keep it. */
  hrefWithNs: (href: string) => string;
}

const NamespaceContext = createContext<NamespaceState | null>(null);

function subscribeStorage(onChange: () => void) {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
}

export function NamespaceProvider({ children }: { children: React.ReactNode }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.namespaces.list.queryOptions());
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const stored = useSyncExternalStore(subscribeStorage, () => window.localStorage.getItem(STORAGE_KEY), () => null);

  const namespaces = useMemo(() => list.data?.namespaces ?? [], [list.data]);
  const fromUrl = searchParams.get("ns");
  const current = useMemo(() => {
    const byName = (name: string | null) => (name ? namespaces.find((n) => n.name === name) : undefined);
    return byName(fromUrl) ?? byName(stored) ?? byName(DEFAULT_NAMESPACE) ?? namespaces[0] ?? null;
  }, [namespaces, fromUrl, stored]);

  const select = useCallback(
    (name: string) => {
      window.localStorage.setItem(STORAGE_KEY, name);
      window.dispatchEvent(new StorageEvent("storage", { key: STORAGE_KEY }));
      const params = new URLSearchParams(searchParams.toString());
      params.set("ns", name);
      router.replace(`${pathname}?${params}`, { scroll: false });
    },
    [pathname, router, searchParams],
  );

  const hrefWithNs = useCallback(
    (href: string) => (current ? `${href}${href.includes("?") ? "&" : "?"}ns=${encodeURIComponent(current.name)}` : href),
    [current],
  );

  const value = useMemo(() => ({ namespaces, current, isLoading: list.isLoading, select, hrefWithNs }), [namespaces, current, list.isLoading, select, hrefWithNs]);
  return <NamespaceContext.Provider value={value}>{children}</NamespaceContext.Provider>;
}

export function useNamespace(): NamespaceState {
  const state = useContext(NamespaceContext);
  if (!state) throw new Error("useNamespace must be used inside NamespaceProvider");
  return state;
}
