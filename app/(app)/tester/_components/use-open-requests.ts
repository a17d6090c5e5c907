"use client";
// The requests open in the workspace's tabs: each tab's draft (edited, not yet
// saved), whether it differs from what is stored, and the last send's answer.
// A tab is a saved request (its id) or a new one ("new:…", no collection yet).
import { useCallback, useState } from "react";
import { blankRequest, type RequestDefinition } from "@/server/contracts/tester-request";
import type { ExecuteWithScriptsResultView } from "./workspace-types";

export interface OpenRequest {
  id: string;
  /** null for a request not saved in a collection yet. */
  collectionId: string | null;
  folderId: string | null;
  name: string;
  draft: RequestDefinition;
  dirty: boolean;
  sending: boolean;
  result: ExecuteWithScriptsResultView | null;
  /** A failure of the call itself (the API's error), not of the send. */
  callError: { code: string; message: string } | null;
}

export const isNew = (id: string) => id.startsWith("new:");

export const BLANK_REQUEST: RequestDefinition = blankRequest({ url: "", auth: { type: "inherit" } });

export function useOpenRequests() {
  const [tabs, setTabs] = useState<OpenRequest[]>([]);
  const [activeId, setActiveId] = useState<string | null>(null);

  const patch = useCallback((id: string, change: Partial<OpenRequest> | ((t: OpenRequest) => Partial<OpenRequest>)) => {
    setTabs((all) => all.map((t) => (t.id === id ? { ...t, ...(typeof change === "function" ? change(t) : change) } : t)));
  }, []);

  const open = useCallback((tab: Omit<OpenRequest, "dirty" | "sending" | "result" | "callError">) => {
    setTabs((all) => (all.some((t) => t.id === tab.id) ? all : [...all, { ...tab, dirty: false, sending: false, result: null, callError: null }]));
    setActiveId(tab.id);
  }, []);

  const close = useCallback(
    (id: string) => {
      setTabs((all) => {
        const rest = all.filter((t) => t.id !== id);
        if (activeId === id) setActiveId(rest.at(-1)?.id ?? null);
        return rest;
      });
    },
    [activeId],
  );

  /** A saved tab's id changes when a new request is saved into a collection. */
  const replace = useCallback((oldId: string, next: Partial<OpenRequest> & { id: string }) => {
    setTabs((all) => all.map((t) => (t.id === oldId ? { ...t, ...next } : t)));
    setActiveId((a) => (a === oldId ? next.id : a));
  }, []);

  return { tabs, activeId, setActiveId, active: tabs.find((t) => t.id === activeId) ?? null, open, close, patch, replace };
}
