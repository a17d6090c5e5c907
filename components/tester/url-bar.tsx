"use client";
// The request line: the method (coloured as in Postman), the URL with its
// {{variables}} coloured known/unknown, and Send, which turns into Cancel
// while the request is in flight. Enter in the URL sends; Ctrl/Cmd+Enter
// sends from anywhere inside a SendShortcutScope.
import { Send, X } from "lucide-react";
import { useId } from "react";
import { cn } from "@/components/lib/cn";
import { Button } from "@/components/ui/button";
import { Select, SelectContent, SelectItem, SelectTrigger } from "@/components/ui/select";
import { HTTP_METHODS } from "@/server/contracts/tester-request";
import { HighlightedInput } from "./highlighted-input";
import { methodTextClass } from "./method-badge";
import { isSendChord } from "./send-shortcut";
import { unknownVariables } from "./template-variables";

export interface UrlBarProps {
  method: string;
  url: string;
  onMethodChange: (method: string) => void;
  onUrlChange: (url: string) => void;
  onSend: () => void;
  /** A request is in flight: Send becomes Cancel. */
  sending?: boolean;
  onCancel?: () => void;
  /** Variables in scope (environment, collection, globals) for colouring `{{name}}`. */
  variables: Record<string, string>;
  disabled?: boolean;
  className?: string;
}

export function UrlBar({ method, url, onMethodChange, onUrlChange, onSend, sending = false, onCancel, variables, disabled, className }: UrlBarProps) {
  const id = useId();
  const unknown = unknownVariables(url, variables);
  const methods: readonly string[] = HTTP_METHODS.includes(method as (typeof HTTP_METHODS)[number]) ? HTTP_METHODS : [...HTTP_METHODS, method];
  const canSend = url.trim() !== "" && !disabled;
  return (
    <div className={cn("flex flex-col gap-1", className)}>
      <div className="flex items-center gap-2">
        <div className="flex min-w-0 flex-1">
          <Select value={method} onValueChange={onMethodChange} disabled={disabled}>
            <SelectTrigger aria-label="Request method" className={cn("w-28 rounded-r-none border-r-0 font-mono font-semibold", methodTextClass(method))}>
              <span>{method}</span>
            </SelectTrigger>
            <SelectContent>
              {methods.map((m) => (
                <SelectItem key={m} value={m} className={cn("font-mono font-semibold", methodTextClass(m))}>
                  {m}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <HighlightedInput
            aria-label="Request URL"
            aria-describedby={unknown.length ? `${id}-unknown` : undefined}
            placeholder="Enter a URL, e.g. {{baseUrl}}/users"
            value={url}
            onValueChange={onUrlChange}
            variables={variables}
            disabled={disabled}
            boxClassName="flex-1 rounded-l-none"
            onKeyDown={(e) => {
              // Plain Enter sends; the Ctrl/Cmd chord is left to the SendShortcutScope around us.
              if (e.key === "Enter" && !isSendChord(e) && !e.shiftKey && !e.altKey && canSend && !sending) {
                e.preventDefault();
                onSend();
              }
            }}
          />
        </div>
        {sending ? (
          <Button type="button" variant="outline" onClick={onCancel} disabled={!onCancel} className="w-28" aria-label="Cancel the request">
            <X aria-hidden /> Cancel
          </Button>
        ) : (
          <Button type="button" onClick={onSend} disabled={!canSend} className="w-28" title="Send (Ctrl+Enter)">
            <Send aria-hidden /> Send
          </Button>
        )}
      </div>
      <p id={`${id}-unknown`} className={cn("text-xs text-destructive", !unknown.length && "sr-only")} aria-live="polite">
        {unknown.length ? `Not defined in any scope: ${unknown.map((n) => `{{${n}}}`).join(", ")}. It is sent as typed.` : ""}
      </p>
    </div>
  );
}
