// The SMTP mailbox (server/contracts/smtp-mailbox.ts): the runner records each
// received mail here, pruning the namespace to its newest MAILBOX_KEEP in the
// same transaction; the API and the console read and delete them.
import { MAILBOX_CONTENT_BUDGET, MAILBOX_KEEP, type MailListQuery, type MailSummary, type MailView } from "@/server/contracts/smtp-mailbox";
import { db, Prisma, type ReceivedMail } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "./namespace-access";

export interface ReceivedAttachment {
  filename: string | null;
  contentType: string;
  contentId: string | null;
  inline: boolean;
  content: Buffer;
}

export interface ReceivedMailInput {
  namespaceId: string;
  serverName: string;
  envelopeFrom: string;
  envelopeTo: string[];
  headerFrom: string | null;
  headerTo: string | null;
  cc: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  headers: { name: string; value: string }[];
  rawSize: number;
  mockId: string | null;
  replyCode: number;
  replyText: string;
  attachments: ReceivedAttachment[];
}

// PostgreSQL text refuses U+0000; a mail may carry it.
const clean = (s: string) => s.replace(/\u0000/g, "\ufffd");
const cleanOrNull = (s: string | null) => (s === null ? null : clean(s));

/** Stores one mail (attachment content while the budget lasts) and prunes the namespace's oldest beyond MAILBOX_KEEP. */
export async function recordReceivedMail(input: ReceivedMailInput): Promise<string> {
  let budget = MAILBOX_CONTENT_BUDGET;
  const attachments = input.attachments.map((a, index) => {
    const keep = a.content.length <= budget;
    if (keep) budget -= a.content.length;
    return { index, filename: a.filename === null ? null : clean(a.filename), contentType: clean(a.contentType), size: a.content.length, contentId: cleanOrNull(a.contentId), inline: a.inline, content: keep ? new Uint8Array(a.content) : null };
  });
  return db().$transaction(async (tx) => {
    const mail = await tx.receivedMail.create({
      data: {
        namespaceId: input.namespaceId,
        serverName: input.serverName,
        envelopeFrom: clean(input.envelopeFrom),
        envelopeTo: input.envelopeTo.map(clean),
        headerFrom: cleanOrNull(input.headerFrom),
        headerTo: cleanOrNull(input.headerTo),
        cc: cleanOrNull(input.cc),
        subject: clean(input.subject),
        text: cleanOrNull(input.text),
        html: cleanOrNull(input.html),
        headers: input.headers.map((h) => ({ name: clean(h.name), value: clean(h.value) })),
        rawSize: input.rawSize,
        mockId: input.mockId,
        replyCode: input.replyCode,
        replyText: clean(input.replyText),
        attachments: { create: attachments },
      },
      select: { id: true },
    });
    await tx.$executeRaw`
      DELETE FROM "ReceivedMail" WHERE "namespaceId" = ${input.namespaceId}::uuid AND "id" NOT IN (
        SELECT "id" FROM "ReceivedMail" WHERE "namespaceId" = ${input.namespaceId}::uuid ORDER BY "receivedAt" DESC, "id" DESC LIMIT ${MAILBOX_KEEP}
      )`;
    return mail.id;
  });
}

type Row = ReceivedMail & { _count: { attachments: number } };

function summary(row: Row): MailSummary {
  return {
    id: row.id,
    serverName: row.serverName,
    from: row.envelopeFrom,
    to: row.envelopeTo,
    subject: row.subject,
    mockId: row.mockId,
    replyCode: row.replyCode,
    replyText: row.replyText,
    size: row.rawSize,
    attachmentCount: row._count.attachments,
    receivedAt: row.receivedAt.toISOString(),
  };
}

const notFound = (scope: NamespaceScope, id: string) => new AppError("not_found", `Mail '${id}' not found in namespace '${scope.name}'`);

export async function listMail(scope: NamespaceScope, query: MailListQuery) {
  const where: Prisma.ReceivedMailWhereInput = { namespaceId: scope.id };
  if (query.search) {
    // In SQL: recipients are an array column, and LIKE's wildcards in the search are meant literally.
    const pattern = `%${query.search.replace(/[\\%_]/g, "\\$&")}%`;
    const found = await db().$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "ReceivedMail" WHERE "namespaceId" = ${scope.id}::uuid AND (
        "envelopeFrom" ILIKE ${pattern} OR "headerFrom" ILIKE ${pattern} OR "subject" ILIKE ${pattern}
        OR EXISTS (SELECT 1 FROM unnest("envelopeTo") AS r WHERE r ILIKE ${pattern}))`;
    where.id = { in: found.map((r) => r.id) };
  }
  const [rows, total] = await Promise.all([
    db().receivedMail.findMany({ where, orderBy: [{ receivedAt: "desc" }, { id: "desc" }], skip: query.offset, take: query.limit, include: { _count: { select: { attachments: true } } } }),
    db().receivedMail.count({ where }),
  ]);
  return { messages: rows.map(summary), total, offset: query.offset, limit: query.limit };
}

export async function getMail(scope: NamespaceScope, id: string): Promise<MailView> {
  const row = await db().receivedMail.findFirst({
    where: { id, namespaceId: scope.id },
    include: { _count: { select: { attachments: true } }, attachments: { orderBy: { index: "asc" }, select: { index: true, filename: true, contentType: true, size: true, contentId: true, inline: true, content: false } } },
  });
  if (!row) throw notFound(scope, id);
  // Whether content was kept, without loading it.
  const stored = await db().receivedMailAttachment.findMany({ where: { mailId: row.id, content: { not: null } }, select: { index: true } });
  const kept = new Set(stored.map((s) => s.index));
  return {
    ...summary(row),
    headerFrom: row.headerFrom,
    headerTo: row.headerTo,
    cc: row.cc,
    headers: (row.headers ?? []) as { name: string; value: string }[],
    text: row.text,
    html: row.html,
    attachments: row.attachments.map((a) => ({ ...a, stored: kept.has(a.index) })),
  };
}

export async function readMailAttachment(scope: NamespaceScope, id: string, index: number) {
  const row = await db().receivedMailAttachment.findFirst({ where: { mailId: id, index, mail: { namespaceId: scope.id } } });
  if (!row) throw new AppError("not_found", `Mail '${id}' has no attachment ${index} in namespace '${scope.name}'`);
  if (!row.content) throw new AppError("not_found", `Attachment ${index} of mail '${id}' was over the mailbox's content budget: only its metadata was kept`);
  return { bytes: row.content, contentType: row.contentType, fileName: row.filename || `attachment-${index}` };
}

export async function deleteMail(scope: NamespaceScope, id: string) {
  const { count } = await db().receivedMail.deleteMany({ where: { id, namespaceId: scope.id } });
  if (count === 0) throw notFound(scope, id);
  return { ok: true as const };
}

export async function clearMailbox(scope: NamespaceScope) {
  const { count } = await db().receivedMail.deleteMany({ where: { namespaceId: scope.id } });
  return { ok: true as const, deleted: count };
}
