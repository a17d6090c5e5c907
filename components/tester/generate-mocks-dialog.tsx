"use client";
// "Generate mocks" on a collection: choose where the responses come from
// (your last sends in the workspace, or sending every request now), then
// see what was created — method, route and the conditions that tell apart
// requests to the same path — and what was skipped, with the reason.
import { useState } from "react";
import Link from "next/link";
import type { MocksFromCollectionResult } from "@/server/contracts/tester-mock-endpoints";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { MethodBadge } from "./method-badge";

export interface GenerateMocksDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  collectionName: string;
  pending: boolean;
  error: unknown;
  result: MocksFromCollectionResult | null;
  onGenerate: (opts: { execute: boolean }) => void;
  /** Where the created mocks are listed. */
  mocksHref: string;
}

export function GenerateMocksDialog(props: GenerateMocksDialogProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      <DialogContent className="max-w-2xl">{props.open ? <GenerateMocksBody {...props} /> : null}</DialogContent>
    </Dialog>
  );
}

function GenerateMocksBody({ collectionName, pending, error, result, onGenerate, onOpenChange, mocksHref }: GenerateMocksDialogProps) {
  const [execute, setExecute] = useState(false);
  return (
    <div className="flex flex-col gap-4">
      <DialogHeader>
        <DialogTitle>Generate mocks from “{collectionName}”</DialogTitle>
        <DialogDescription>Each request becomes a mock answering its method and path with the response it got. Requests to the same path get conditions on what differs (query, headers, JSON body). Generating again updates the same mocks.</DialogDescription>
      </DialogHeader>
      {result ? (
        <GenerateMocksResult result={result} />
      ) : (
        <div className="flex items-center gap-2">
          <Checkbox id="generate-mocks-execute" checked={execute} onCheckedChange={(c) => setExecute(c === true)} />
          <Label htmlFor="generate-mocks-execute" className="font-normal">
            Send every request now (with its scripts) instead of using your last responses
          </Label>
        </div>
      )}
      <ApiErrorAlert error={error} title="Could not generate the mocks" />
      <DialogFooter>
        {result ? (
          <>
            <Button asChild variant="outline">
              <Link href={mocksHref}>Open mocks</Link>
            </Button>
            <Button type="button" onClick={() => onOpenChange(false)}>
              Done
            </Button>
          </>
        ) : (
          <>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="button" disabled={pending} onClick={() => onGenerate({ execute })}>
              {pending ? "Generating…" : "Generate mocks"}
            </Button>
          </>
        )}
      </DialogFooter>
    </div>
  );
}

export function GenerateMocksResult({ result }: { result: MocksFromCollectionResult }) {
  return (
    <div className="flex max-h-96 flex-col gap-3 overflow-auto text-sm" aria-live="polite">
      <p>
        <strong>{result.created.length}</strong> {result.created.length === 1 ? "mock" : "mocks"} created or updated in <span className="font-mono">{result.namespace}</span>
        {result.skipped.length ? `, ${result.skipped.length} skipped` : ""}.
      </p>
      {result.created.length ? (
        <ul className="flex flex-col gap-1" aria-label="Created mocks">
          {result.created.map((c) => (
            <li key={c.mockId} className="flex items-center gap-2">
              <MethodBadge method={c.method} />
              <span className="font-mono">{c.route}</span>
              <span className="text-muted-foreground">{c.name}</span>
              {c.conditions ? <span className="ml-auto text-xs text-muted-foreground">{c.conditions === 1 ? "1 condition" : `${c.conditions} conditions`}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {result.skipped.length ? (
        <ul className="flex flex-col gap-1" aria-label="Skipped requests">
          {result.skipped.map((s) => (
            <li key={s.requestId}>
              <span className="font-medium">{s.name}</span>: <span className="text-muted-foreground">{s.reason}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
