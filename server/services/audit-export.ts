// Reading and exporting the audit log: csv, json, syslog (RFC 5424), cef (ArcSight).
import type { z } from "zod";
import type { AuditEventView, AuditExportQuery, AuditListQuery } from "@/server/contracts/audit";
import { db, type AuditEvent, Prisma } from "@/server/db/client";
import { packageVersion } from "@/server/release";

function whereOf(q: { from?: string; to?: string; action?: string; actor?: string; namespace?: string }): Prisma.AuditEventWhereInput {
  return {
    ...(q.from || q.to ? { at: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lte: new Date(q.to) } : {}) } } : {}),
    ...(q.action ? { action: { startsWith: q.action } } : {}),
    ...(q.actor ? { actorName: q.actor } : {}),
    ...(q.namespace ? { namespace: q.namespace } : {}),
  };
}

export function auditView(e: AuditEvent): AuditEventView {
  return {
    id: e.id.toString(),
    at: e.at.toISOString(),
    actorId: e.actorId,
    actorName: e.actorName,
    action: e.action,
    outcome: e.outcome === "failure" ? "failure" : "success",
    namespace: e.namespace,
    targetType: e.targetType,
    targetId: e.targetId,
    ip: e.ip,
    details: e.details ?? null,
  };
}

export async function listAudit(q: z.infer<typeof AuditListQuery>) {
  const where = whereOf(q);
  const [rows, total] = await db().$transaction([
    db().auditEvent.findMany({ where, orderBy: { id: "desc" }, skip: q.offset, take: q.limit }),
    db().auditEvent.count({ where }),
  ]);
  return { events: rows.map(auditView), total, limit: q.limit, offset: q.offset };
}

const CSV_COLUMNS = ["id", "at", "actorId", "actorName", "action", "outcome", "namespace", "targetType", "targetId", "ip", "details"] as const;

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "string" ? v : JSON.stringify(v);
  // Spreadsheet formula injection: a cell starting with = + - @ is shown as text.
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function toCsv(events: AuditEventView[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const e of events) lines.push(CSV_COLUMNS.map((c) => csvCell(e[c])).join(","));
  return lines.join("\r\n") + "\r\n";
}

function sdEscape(v: string) {
  return v.replace(/[\\"\]]/g, (c) => `\\${c}`);
}

/** RFC 5424: <PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] MSG; facility 10 (authpriv). */
function toSyslog(events: AuditEventView[]): string {
  return events
    .map((e) => {
      const severity = e.outcome === "failure" ? 4 : 6; // warning : informational
      const pri = 10 * 8 + severity;
      const sd = `[audit@32473 actor="${sdEscape(e.actorName)}" outcome="${e.outcome}"${e.namespace ? ` namespace="${sdEscape(e.namespace)}"` : ""}${e.targetId ? ` target="${sdEscape(`${e.targetType ?? ""}:${e.targetId}`)}"` : ""}${e.ip ? ` ip="${sdEscape(e.ip)}"` : ""}]`;
      return `<${pri}>1 ${e.at} polymock polymock - ${e.action.replace(/\s/g, "_").slice(0, 32)} ${sd} ${e.action} by ${e.actorName}`;
    })
    .join("\n") + (events.length ? "\n" : "");
}

function cefHeader(v: string) {
  return v.replace(/[\\|]/g, (c) => `\\${c}`);
}
function cefExt(v: string) {
  return v.replace(/[\\=]/g, (c) => `\\${c}`).replace(/\r?\n/g, "\\n");
}

/** CEF:Version|Vendor|Product|Version|SignatureID|Name|Severity|Extension */
function toCef(events: AuditEventView[]): string {
  return events
    .map((e) => {
      const severity = e.outcome === "failure" ? 6 : 3;
      const ext = [
        `rt=${new Date(e.at).getTime()}`,
        `suser=${cefExt(e.actorName)}`,
        e.actorId ? `suid=${cefExt(e.actorId)}` : "",
        e.ip ? `src=${cefExt(e.ip)}` : "",
        `outcome=${e.outcome}`,
        e.namespace ? `cs1Label=namespace cs1=${cefExt(e.namespace)}` : "",
        e.targetId ? `cs2Label=target cs2=${cefExt(`${e.targetType ?? ""}:${e.targetId}`)}` : "",
        `externalId=${e.id}`,
      ].filter(Boolean);
      return `CEF:0|Polymock|Polymock|${cefHeader(packageVersion())}|${cefHeader(e.action)}|${cefHeader(e.action.replace(/[._]/g, " "))}|${severity}|${ext.join(" ")}`;
    })
    .join("\n") + (events.length ? "\n" : "");
}

export async function exportAudit(q: z.infer<typeof AuditExportQuery>) {
  const rows = await db().auditEvent.findMany({ where: whereOf(q), orderBy: { id: "asc" }, take: q.limit });
  const events = rows.map(auditView);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  switch (q.format) {
    case "csv":
      return { body: toCsv(events), contentType: "text/csv; charset=utf-8", filename: `audit-${stamp}.csv` };
    case "syslog":
      return { body: toSyslog(events), contentType: "text/plain; charset=utf-8", filename: `audit-${stamp}.log` };
    case "cef":
      return { body: toCef(events), contentType: "text/plain; charset=utf-8", filename: `audit-${stamp}.cef` };
    default:
      return { body: JSON.stringify({ events, count: events.length }), contentType: "application/json", filename: `audit-${stamp}.json` };
  }
}
