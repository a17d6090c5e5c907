"use client";
// Ctrl+Enter (Cmd+Enter on a Mac) sends the request from anywhere in the
// request editor. Ordinary fields bubble the key up to the scope's element;
// Monaco swallows its keys, so code editors inside the scope bind the same
// chord through `useSendShortcut` (see TesterCodeEditor).
import { createContext, useCallback, useContext, useEffect, useRef } from "react";

const SendContext = createContext<(() => void) | null>(null);

/** True for Ctrl+Enter / Cmd+Enter. */
export function isSendChord(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): boolean {
  return e.key === "Enter" && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
}

/**
 * Wraps the URL bar and request editor; Ctrl/Cmd+Enter inside it calls `onSend`.
 * `disabled` (e.g. while a request is in flight) ignores the chord.
 */
export function SendShortcutScope({ onSend, disabled, className, children }: { onSend: () => void; disabled?: boolean; className?: string; children: React.ReactNode }) {
  const latest = useRef({ onSend, disabled });
  useEffect(() => {
    latest.current = { onSend, disabled };
  });
  const fire = useCallback(() => {
    if (!latest.current.disabled) latest.current.onSend();
  }, []);
  return (
    <SendContext.Provider value={fire}>
      <div
        className={className}
        onKeyDown={(e) => {
          if (!isSendChord(e) || e.defaultPrevented) return;
          e.preventDefault();
          fire();
        }}
      >
        {children}
      </div>
    </SendContext.Provider>
  );
}

/** The scope's send callback (null outside a scope). */
export function useSendShortcut(): (() => void) | null {
  return useContext(SendContext);
}
