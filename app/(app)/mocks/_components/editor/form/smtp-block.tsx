"use client";
// The SMTP part of the mock form: which SMTP protocol server the mail arrives
// at, and the five condition lists over the mail (the reply code is the
// response's status).
import Link from "next/link";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../../../_components/namespace-context";
import { ConditionGroup } from "./condition-group";
import { ConditionsBuilder } from "./conditions-builder";
import type { DraftProps } from "./section";
import { useProtocolServers } from "./use-protocol-servers";

type Obj = Record<string, unknown>;
const ANY = "__any__";

const LISTS: { key: string; noun: string; title: string; hint: string; name?: boolean }[] = [
  { key: "senderConditions", noun: "Sender condition", title: "Sender conditions", hint: "Compared with the envelope sender (MAIL FROM), e.g. contains @shop.example" },
  { key: "recipientConditions", noun: "Recipient condition", title: "Recipient conditions", hint: "Compared with the recipients (RCPT TO); a condition passes when one recipient fits" },
  { key: "subjectConditions", noun: "Subject condition", title: "Subject conditions", hint: "Compared with the Subject header" },
  { key: "bodyConditions", noun: "Body text condition", title: "Body conditions", hint: "Compared with the mail's text body" },
  { key: "headerConditions", noun: "Mail header condition", title: "Header conditions", hint: "The header's name (any case), e.g. X-Priority, and its value", name: true },
];

export function SmtpBlockForm({ draft, set }: DraftProps) {
  const { hrefWithNs } = useNamespace();
  const { servers, loaded } = useProtocolServers(["smtp"]);
  const block = (draft.smtp ?? {}) as Obj;
  const serverName = (block.serverName as string | undefined) ?? "";
  const known = servers.some((s) => s.name === serverName);
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-muted-foreground">An e-mail sent to the SMTP server is matched; the response&apos;s status is the SMTP reply code (250 accepts the mail).</p>
      <div className="flex max-w-md flex-col gap-1.5">
        <Label htmlFor="smtp-server" className="text-xs text-muted-foreground">
          SMTP server
        </Label>
        <Select value={serverName || ANY} onValueChange={(v) => set(["smtp", "serverName"], v === ANY ? undefined : v)}>
          <SelectTrigger id="smtp-server">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ANY}>(not set: any SMTP server of the namespace)</SelectItem>
            {servers.map((s) => (
              <SelectItem key={s.id} value={s.name}>
                {s.name} (port {s.port})
              </SelectItem>
            ))}
            {serverName && !known ? <SelectItem value={serverName}>{serverName} (no such server)</SelectItem> : null}
          </SelectContent>
        </Select>
        {loaded && servers.length === 0 ? (
          <p className="text-xs text-muted-foreground">
            This namespace has no SMTP server yet: create one on{" "}
            <Link className="underline underline-offset-2" href={hrefWithNs("/protocol-servers")}>
              Protocol servers
            </Link>{" "}
            so the runner listens for mail.
          </p>
        ) : null}
      </div>
      {LISTS.map((l) => (
        <ConditionGroup key={l.key} title={l.title} hint={l.hint}>
          <ConditionsBuilder
            idPrefix={`smtp-${l.key}`}
            noun={l.noun}
            pathLabel="name"
            pathPlaceholder="X-Priority"
            noPath={!l.name}
            rows={block[l.key] as never}
            onChange={(v) => set(["smtp", l.key], v)}
          />
        </ConditionGroup>
      ))}
    </div>
  );
}
