"use client";
// One received mail, as Mailpit shows it: who and what, then the HTML body
// (in a sandboxed frame: a mail's scripts never run and it cannot reach the
// console), the text body, every header, and the attachments as downloads.
import { useQuery } from "@tanstack/react-query";
import { Download, Paperclip, Trash2, X } from "lucide-react";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { MockBadge, ReplyBadge } from "./reply-badge";
import type { MailFull } from "./types";

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

function Attachments({ mail, namespace }: { mail: MailFull; namespace: string }) {
  if (!mail.attachments.length) return <p className="text-sm text-muted-foreground">No attachments.</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label="Attachments">
      {mail.attachments.map((a) => {
        const name = a.filename ?? `attachment-${a.index}`;
        const href = `/api/v1/smtp/messages/${mail.id}/attachments/${a.index}?namespace=${encodeURIComponent(namespace)}`;
        return (
          <li key={a.index} className="flex items-center justify-between gap-3 rounded-md border px-3 py-2 text-sm">
            <span className="flex min-w-0 items-center gap-2">
              <Paperclip className="size-4 shrink-0 text-muted-foreground" aria-hidden />
              <span className="truncate font-medium">{name}</span>
              <span className="shrink-0 text-muted-foreground">
                {a.contentType} · {formatSize(a.size)}
              </span>
            </span>
            {a.stored ? (
              <Button size="sm" variant="outline" asChild>
                <a href={href} download={name} aria-label={`Download ${name}`}>
                  <Download aria-hidden /> Download
                </a>
              </Button>
            ) : (
              <span className="text-xs text-muted-foreground">not kept (over the size budget)</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function MailDetail({ id, namespace, onClose, onDelete }: { id: string; namespace: string; onClose: () => void; onDelete: () => void }) {
  const trpc = useTRPC();
  const mail = useQuery(trpc.smtpMailbox.get.queryOptions({ namespace, id }));
  if (mail.error) return <ApiErrorAlert error={mail.error} />;
  if (!mail.data) {
    return (
      <Card aria-busy="true" aria-label="Loading the mail">
        <CardContent className="flex flex-col gap-3 pt-6">
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-64 w-full" />
        </CardContent>
      </Card>
    );
  }
  const m = mail.data;
  return (
    <Card role="region" aria-label={`Mail ${m.subject || "(no subject)"}`}>
      <CardHeader className="flex flex-row items-start justify-between gap-3">
        <CardTitle className="min-w-0 text-lg break-words">{m.subject || "(no subject)"}</CardTitle>
        <div className="flex shrink-0 gap-1">
          <Button size="icon-sm" variant="ghost" aria-label="Delete this mail" onClick={onDelete}>
            <Trash2 aria-hidden />
          </Button>
          <Button size="icon-sm" variant="ghost" aria-label="Close the mail" onClick={onClose}>
            <X aria-hidden />
          </Button>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <Field label="From">{m.headerFrom ?? m.from}</Field>
          <Field label="To">{m.headerTo ?? m.to.join(", ")}</Field>
          {m.cc ? <Field label="Cc">{m.cc}</Field> : null}
          <Field label="Envelope">
            <span className="font-mono text-xs">
              {m.from || "<>"} → {m.to.join(", ")}
            </span>
          </Field>
          <Field label="Received">
            {formatDateTime(m.receivedAt)} by <span className="font-mono text-xs">{m.serverName}</span> · {formatSize(m.size)}
          </Field>
          <Field label="Reply">
            <span className="flex flex-wrap items-center gap-2">
              <ReplyBadge code={m.replyCode} /> <span className="text-muted-foreground">{m.replyText}</span> <MockBadge mockId={m.mockId} />
            </span>
          </Field>
        </dl>
        <Tabs defaultValue={m.html ? "html" : "text"}>
          <TabsList className="w-auto">
            <TabsTrigger value="html" disabled={!m.html}>
              HTML
            </TabsTrigger>
            <TabsTrigger value="text">Text</TabsTrigger>
            <TabsTrigger value="headers">Headers</TabsTrigger>
            <TabsTrigger value="attachments">Attachments ({m.attachments.length})</TabsTrigger>
          </TabsList>
          <TabsContent value="html">
            {/* sandbox="" : no scripts, no forms, no top navigation, a unique origin. */}
            {m.html ? <iframe title="HTML body" sandbox="" srcDoc={withoutRemoteContent(m.html)} className="h-[28rem] w-full rounded-md border bg-white" /> : null}
          </TabsContent>
          <TabsContent value="text">
            <pre className="max-h-[28rem] overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap">{m.text || "(no text body)"}</pre>
          </TabsContent>
          <TabsContent value="headers">
            <dl className="grid max-h-[28rem] grid-cols-[max-content_1fr] gap-x-4 gap-y-1 overflow-auto font-mono text-xs">
              {m.headers.map((h, i) => (
                <Field key={i} label={h.name}>
                  {h.value}
                </Field>
              ))}
            </dl>
          </TabsContent>
          <TabsContent value="attachments">
            <Attachments mail={m} namespace={namespace} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

/**
 * The mail's HTML behind a policy that loads nothing from the network: with
 * `sandbox=""` no script runs, and this keeps remote images (tracking pixels)
 * from being fetched when a mail is opened. Inline and data: images still show.
 */
function withoutRemoteContent(html: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:">${html}`;
}
