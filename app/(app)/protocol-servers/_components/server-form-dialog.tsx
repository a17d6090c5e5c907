"use client";
// Create or edit a protocol server. The protocol decides which fields show:
// host and port for listeners (with framing for TCP, AUTH and STARTTLS for
// SMTP), brokers for Kafka, a URL for RabbitMQ and NATS. Credentials are
// write-only: the form says whether some are stored and can clear them.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { Controller, type Path, type Resolver, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { type ProtocolServerView, SERVER_PROTOCOLS, type ServerProtocol, TcpFraming } from "@/server/contracts/protocol-servers";
import { useNamespace } from "../../_components/namespace-context";
import { CreateServerForm, emptyValues, FRAMING_LABEL, isListener, PROTOCOL_LABEL, type ServerFormOutput, type ServerFormValues, UpdateServerForm, valuesFrom } from "./server-form-model";
import { CheckboxField } from "@/components/ui/checkbox-field";

const HINT: Record<ServerProtocol, string> = {
  tcp: "A TCP listener of the protocol runner; socket mocks whose server name is this server's name answer its messages.",
  udp: "A UDP listener: each datagram is one message, each reply one datagram back to the sender.",
  smtp: "An SMTP listener: e-mails sent to it are matched against the namespace's SMTP mocks.",
  kafka: "A Kafka cluster the runner consumes from; Kafka mocks name it by server name.",
  rabbitmq: "A RabbitMQ broker the runner consumes from; RabbitMQ mocks name it by server name.",
  nats: "A NATS server the runner subscribes to.",
};

/** `server` undefined: closed; null: create a new one; a server: edit it. */
export function ServerFormDialog({ server, onClose }: { server: ProtocolServerView | null | undefined; onClose: () => void }) {
  return (
    <Dialog open={server !== undefined} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="max-w-2xl">{server !== undefined ? <ServerForm key={server?.id ?? "new"} server={server} onClose={onClose} /> : null}</DialogContent>
    </Dialog>
  );
}

const FIELDS: Path<ServerFormValues>[] = ["name", "protocol", "host", "port", "url", "brokers", "options.framing", "options.idleMs", "options.auth", "options.starttls", "credentials.username", "credentials.password"];

function ServerForm({ server, onClose }: { server: ProtocolServerView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const editing = server !== null;
  const resolver = useMemo<Resolver<ServerFormValues, unknown, ServerFormOutput>>(() => zodResolver(editing ? UpdateServerForm : CreateServerForm) as never, [editing]);
  const form = useForm<ServerFormValues, unknown, ServerFormOutput>({ resolver, defaultValues: editing ? valuesFrom(server) : emptyValues() });
  const { errors } = form.formState;
  const [protocol, framing, clearCredentials] = useWatch({ control: form.control, name: ["protocol", "options.framing", "clearCredentials"] });
  const listener = isListener(protocol);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.protocolServers.pathKey() });
  // The server names fields as the contract does (port, options.idleMs, brokers.0…): put each on its control.
  const onError = (err: unknown) => applyFieldErrors(err, form.setError, FIELDS);
  const done = (verb: string) => (s: ProtocolServerView) => {
    void invalidate();
    toast.success(`${s.name} ${verb}; the runner ${verb === "created" ? "starts" : "restarts"} it`);
    onClose();
  };
  const create = useMutation(trpc.protocolServers.create.mutationOptions({ onSuccess: done("created"), onError }));
  const update = useMutation(trpc.protocolServers.update.mutationOptions({ onSuccess: done("saved"), onError }));
  const mutation = editing ? update : create;
  const submit = form.handleSubmit((parsed) => {
    if (editing) update.mutate({ namespace, id: server.id, patch: parsed });
    else create.mutate({ namespace, server: parsed as Extract<ServerFormOutput, { protocol: ServerProtocol }> });
  });
  const brokersError = errors.brokers?.message ?? (errors.brokers as unknown as { message?: string }[] | undefined)?.find?.((e) => e?.message)?.message;

  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{editing ? `Edit ${server.name}` : "New protocol server"}</DialogTitle>
        <DialogDescription>{HINT[protocol]}</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={mutation.error} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="protocol"
          render={({ field }) => (
            <Field label="Protocol" htmlFor="server-protocol" hint={editing ? "Changing it drops the old protocol's options." : undefined} error={errors.protocol?.message}>
              {(aria) => (
                <Select value={field.value} onValueChange={(v) => field.onChange(v as ServerProtocol)}>
                  <SelectTrigger {...aria}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {SERVER_PROTOCOLS.map((p) => (
                      <SelectItem key={p} value={p}>
                        {PROTOCOL_LABEL[p]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </Field>
          )}
        />
        <Field label="Name" htmlFor="server-name" hint="Mocks name the server by this (their server name); unique in the namespace." error={errors.name?.message}>
          {(aria) => <Input autoComplete="off" autoFocus placeholder="orders-tcp" {...aria} {...form.register("name")} />}
        </Field>
        {listener ? (
          <>
            <Field label="Port" htmlFor="server-port" error={errors.port?.message}>
              {(aria) => <Input type="number" inputMode="numeric" min={1} max={65535} placeholder={protocol === "smtp" ? "2525" : "9000"} {...aria} {...form.register("port")} />}
            </Field>
            <Field label="Host" htmlFor="server-host" hint="The address to bind; empty: the runner's HOST." error={errors.host?.message}>
              {(aria) => <Input autoComplete="off" placeholder="0.0.0.0" {...aria} {...form.register("host")} />}
            </Field>
          </>
        ) : protocol === "kafka" ? (
          <Field label="Brokers" htmlFor="server-brokers" className="sm:col-span-2" hint="Bootstrap brokers, host:port, one per line." error={brokersError}>
            {(aria) => <textarea rows={3} className="min-h-16 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40" placeholder="kafka-1:9092" {...aria} {...form.register("brokers")} />}
          </Field>
        ) : (
          <Field label="URL" htmlFor="server-url" className="sm:col-span-2" hint={protocol === "nats" ? "e.g. nats://localhost:4222" : "e.g. amqp://localhost:5672"} error={errors.url?.message}>
            {(aria) => <Input type="url" autoComplete="off" {...aria} {...form.register("url")} />}
          </Field>
        )}
      </div>

      {protocol === "tcp" ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <Controller
            control={form.control}
            name="options.framing"
            render={({ field }) => (
              <Field label="Framing" htmlFor="server-framing" hint="How the listener cuts the byte stream into messages; replies are framed the same way." error={errors.options?.framing?.message}>
                {(aria) => (
                  <Select value={field.value} onValueChange={(v) => field.onChange(v as TcpFraming)}>
                    <SelectTrigger {...aria}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {TcpFraming.options.map((f) => (
                        <SelectItem key={f} value={f}>
                          {FRAMING_LABEL[f]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              </Field>
            )}
          />
          {framing === "raw" ? (
            <Field label="Quiet pause (ms)" htmlFor="server-idle" hint="A raw message ends after this many quiet milliseconds." error={errors.options?.idleMs?.message}>
              {(aria) => <Input type="number" min={1} max={60000} {...aria} {...form.register("options.idleMs")} />}
            </Field>
          ) : null}
        </div>
      ) : null}
      {protocol === "smtp" ? (
        <div className="flex flex-wrap gap-x-6 gap-y-3">
          <CheckboxField idPrefix="server" control={form.control} name="options.auth" label="Require SMTP AUTH (with the credentials below)" />
          <CheckboxField idPrefix="server" control={form.control} name="options.starttls" label="Offer STARTTLS (self-signed certificate)" />
        </div>
      ) : null}

      {protocol !== "tcp" && protocol !== "udp" ? (
        <fieldset className="flex flex-col gap-3 rounded-lg border p-4">
          <legend className="px-1 text-sm font-medium">Credentials</legend>
          <div className="flex flex-col gap-1">
            <p className="flex items-center gap-2 text-sm">
              Stored credentials: {server?.hasCredentials && !clearCredentials ? <Badge variant="success">set</Badge> : <Badge variant="secondary">not set</Badge>}
            </p>
            <p className="text-xs text-muted-foreground">Stored encrypted and never shown again; type new ones to replace them.</p>
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Username" htmlFor="server-username" error={errors.credentials?.username?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("credentials.username")} />}
            </Field>
            <Field label="Password" htmlFor="server-password" error={errors.credentials?.password?.message}>
              {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("credentials.password")} />}
            </Field>
          </div>
          {server?.hasCredentials ? <CheckboxField idPrefix="server" control={form.control} name="clearCredentials" label="Clear the stored credentials" /> : null}
        </fieldset>
      ) : null}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" pending={mutation.isPending}>
          {editing ? "Save changes" : "Create server"}
        </Button>
      </DialogFooter>
    </form>
  );
}

