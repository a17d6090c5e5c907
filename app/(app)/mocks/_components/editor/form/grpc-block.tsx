"use client";
// The gRPC part of the mock form: service and method picked from the
// namespace's uploaded .proto files (free text while none are uploaded), a
// response skeleton of the method's output type, and the message and
// metadata conditions.
import { useQuery } from "@tanstack/react-query";
import { Wand2 } from "lucide-react";
import Link from "next/link";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { GrpcMethodEntry } from "@/server/contracts/grpc-endpoints";
import { useNamespace } from "../../../../_components/namespace-context";
import { ConditionGroup } from "./condition-group";
import { ConditionsBuilder } from "./conditions-builder";
import { LabeledInput, type DraftProps } from "./section";

type Obj = Record<string, unknown>;

/** A mock's service may be the simple name when it is unique in the namespace. */
const sameService = (entry: string, typed: string) => entry === typed || entry.split(".").pop() === typed;

function Picker({ id, label, value, options, placeholder, onChange }: { id: string; label: string; value: string; options: { value: string; label: string }[]; placeholder: string; onChange: (v: string) => void }) {
  // A stored name the protos no longer define stays visible (saving it is refused with the reason).
  const all = value && !options.some((o) => o.value === value) ? [...options, { value, label: `${value} (not in the uploaded protos)` }] : options;
  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id}>
          <SelectValue placeholder={placeholder} />
        </SelectTrigger>
        <SelectContent>
          {all.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

export function GrpcBlockForm({ draft, set }: DraftProps) {
  const trpc = useTRPC();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const catalog = useQuery(trpc.grpcProtos.methods.queryOptions({ namespace }, { enabled: !!namespace }));
  const block = (draft.grpc ?? {}) as Obj;
  const service = (block.service as string | undefined) ?? "";
  const method = (block.method as string | undefined) ?? "";
  const methods = catalog.data?.methods ?? [];
  const services = [...new Set(methods.map((m) => m.service))];
  const ofService = methods.filter((m) => sameService(m.service, service));
  const entry = ofService.find((m) => m.method === method);

  function pickService(next: string) {
    set(["grpc", "service"], next);
    if (!methods.some((m) => m.service === next && m.method === method)) {
      set(["grpc", "method"], "");
      set(["grpc", "methodType"], undefined);
    }
  }
  function pickMethod(next: string) {
    set(["grpc", "method"], next);
    set(["grpc", "methodType"], ofService.find((m) => m.method === next)?.kind);
  }
  function insertSkeleton(e: GrpcMethodEntry) {
    set(["response", "payload"], e.responseSkeleton);
    toast.success(`Response payload set to an empty ${e.responseType}${e.kind === "server-stream" || e.kind === "bidirectional" ? " stream" : ""}`);
  }

  const protosLink = (
    <Link className="underline underline-offset-2" href={hrefWithNs("/grpc")}>
      gRPC protos
    </Link>
  );

  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-muted-foreground">Served on the runner&apos;s gRPC port (metadata x-namespace names this namespace). Response status OK is 0.</p>
      {methods.length > 0 ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <Picker id="grpc-service" label="Service" value={service} placeholder="Choose a service" options={services.map((s) => ({ value: s, label: s }))} onChange={pickService} />
            <Picker id="grpc-method" label="gRPC method" value={method} placeholder={service ? "Choose a method" : "Choose a service first"} options={ofService.map((m) => ({ value: m.method, label: m.method }))} onChange={pickMethod} />
          </div>
          {entry ? (
            <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border bg-muted/40 px-3 py-2 text-xs" aria-label="Method signature" role="group">
              <span className="flex flex-wrap items-center gap-2">
                <Badge variant="outline">{entry.kind === "bidirectional" ? "bidi" : entry.kind}</Badge>
                <code className="font-mono">
                  ({entry.requestType}) → {entry.responseType}
                </code>
                <span className="text-muted-foreground">from {entry.file}</span>
              </span>
              <Button type="button" variant="outline" size="sm" onClick={() => insertSkeleton(entry)}>
                <Wand2 aria-hidden /> Insert skeleton
              </Button>
            </div>
          ) : (
            <p className="text-xs text-muted-foreground">Pick a method to see its types and start the response from its output message.</p>
          )}
        </>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <LabeledInput id="grpc-service" label="Service" placeholder="pkg.Greeter" value={service} onChange={(e) => set(["grpc", "service"], e.target.value)} />
            <LabeledInput id="grpc-method" label="gRPC method" placeholder="SayHello" value={method} onChange={(e) => set(["grpc", "method"], e.target.value)} />
          </div>
          {catalog.isSuccess ? (
            <p className="text-xs text-muted-foreground">
              No .proto files in this namespace yet, so any names are accepted. Upload the service&apos;s .proto on {protosLink} to pick the service and method here and start the response from the output message; the runner serves a method only once its .proto is uploaded.
            </p>
          ) : null}
        </>
      )}
      <ConditionGroup title="Message conditions" hint="A JSON path into the request message (field names as in the .proto), e.g. $.id; for client streaming, $[0].id">
        <ConditionsBuilder idPrefix="grpc-conditions" noun="Message condition" pathLabel="path" pathPlaceholder="$.id" rows={block.conditions as never} onChange={(v) => set(["grpc", "conditions"], v)} />
      </ConditionGroup>
      <ConditionGroup title="Metadata conditions" hint="The metadata key, lower-case, e.g. authorization">
        <ConditionsBuilder idPrefix="grpc-meta" noun="Metadata condition" pathLabel="key" pathPlaceholder="authorization" rows={block.meta as never} onChange={(v) => set(["grpc", "meta"], v)} />
      </ConditionGroup>
    </div>
  );
}
