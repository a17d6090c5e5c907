import { z } from "zod";

export const PermissionSchema = z.enum(["read", "write", "delete"]);
export const MemberRoleSchema = z.enum(["owner", "editor", "viewer"]);
export const UserRoleSchema = z.enum(["admin", "user"]);

export const IdParams = z.object({ id: z.string().uuid({ message: "must be a UUID" }) });

/** Names of namespaces, tokens, users: printable, no path separators. */
export const NamespaceName = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z0-9]([a-z0-9-_]*[a-z0-9])?$/, "lowercase letters, digits, '-' and '_' only; must start and end with a letter or digit");

export const Username = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._@-]+$/, "letters, digits, '.', '_', '@' and '-' only");

export const Password = z.string().min(8, "at least 8 characters").max(256);

/** Query-string booleans: "true"/"false"/"1"/"0". */
export const QueryBool = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1");

export const Paging = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});

export const OkResponse = z.object({ ok: z.literal(true) });

export const ErrorEnvelopeSchema = z.object({
  error: z.string(),
  code: z.string(),
  request_id: z.string(),
  details: z.unknown().optional(),
});

export const Timestamp = z.string().describe("ISO 8601 timestamp");

/** Stored lower-case, so look-ups and uniqueness do not depend on how someone typed it. */
export const Email = z.string().trim().email().max(254).transform((v) => v.toLowerCase());
