// Append-only audit trail: logins, failed logins, credential changes, admin
// actions. Rows are never updated or deleted by the application.
import type { Actor } from "@/server/auth/actor";
import { db, Prisma } from "@/server/db/client";

export interface AuditEntry {
  actor?: Actor | null;
  /** For events without an authenticated actor (a failed login names the attempted user). */
  actorName?: string;
  actorId?: string | null;
  action: string;
  outcome?: "success" | "failure";
  namespace?: string | null;
  targetType?: string;
  targetId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

export async function recordAudit(entry: AuditEntry): Promise<void> {
  await db().auditEvent.create({
    data: {
      actorId: entry.actor?.user.id ?? entry.actorId ?? null,
      actorName: entry.actor?.user.username ?? entry.actorName ?? "anonymous",
      action: entry.action,
      outcome: entry.outcome ?? "success",
      namespace: entry.namespace ?? null,
      targetType: entry.targetType ?? null,
      targetId: entry.targetId ?? null,
      ip: entry.ip ?? entry.actor?.ip ?? null,
      details: entry.details ? (entry.details as Prisma.InputJsonValue) : Prisma.JsonNull,
    },
  });
}
