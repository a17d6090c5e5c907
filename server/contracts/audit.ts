import { z } from "zod";
import { Timestamp } from "./common";
import { endpoint } from "./endpoint";

export const AuditFormat = z.enum(["csv", "json", "syslog", "cef"]);
export const AuditExportQuery = z.object({
  format: AuditFormat.default("json"),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  action: z.string().max(100).optional(),
  actor: z.string().max(100).optional(),
  namespace: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100000).default(10000),
});
export const AuditEventView = z.object({
  id: z.string(),
  at: Timestamp,
  actorId: z.string().nullable(),
  actorName: z.string(),
  action: z.string(),
  outcome: z.enum(["success", "failure"]),
  namespace: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  ip: z.string().nullable(),
  details: z.unknown().nullable(),
});
export type AuditEventView = z.infer<typeof AuditEventView>;
export const AuditListQuery = AuditExportQuery.omit({ format: true, limit: true }).extend({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export const AuditList = z.object({ events: z.array(AuditEventView), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

const tag = "Administration";
export const auditEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/admin/audit", tag, summary: "Audit log, newest first (paged)", auth: "admin", query: AuditListQuery, response: AuditList }),
  export: endpoint({ method: "GET", path: "/api/v1/admin/audit/export", tag, summary: "Export the audit log as csv, json, syslog (RFC 5424) or cef", auth: "admin", query: AuditExportQuery, produces: ["application/json", "text/csv", "text/plain"] }),
} as const;
