import { z } from "zod";
import { OkResponse } from "./common";
import { endpoint } from "./endpoint";

export const EmailConfigInput = z
  .object({
    enabled: z.boolean().default(true),
    host: z.string().min(1).max(255),
    port: z.number().int().min(1).max(65535).default(587),
    secure: z.boolean().default(false).describe("TLS from the first byte (port 465); otherwise STARTTLS when offered"),
    username: z.string().max(255).optional(),
    password: z.string().max(1000).optional().describe("write-only; absent keeps the saved one"),
    from: z.string().min(3).max(255).describe('sender, e.g. "Polymock <noreply@example.com>"'),
    tlsRejectUnauthorized: z.boolean().default(true),
  })
  .strict();
export type EmailConfigInput = z.infer<typeof EmailConfigInput>;
export const EmailConfigView = EmailConfigInput.omit({ password: true }).extend({
  // Empty until an admin saves a configuration (configured: false).
  host: z.string().max(255),
  from: z.string().max(255),
  hasPassword: z.boolean(),
  configured: z.boolean(),
});
export const EmailTestInput = z.object({ to: z.string().email().max(254) }).strict();
export const EmailPingOutput = z.object({ ok: z.boolean(), message: z.string() });

const tag = "Administration";
export const emailEndpoints = {
  getConfig: endpoint({ method: "GET", path: "/api/v1/admin/email/config", tag, summary: "SMTP configuration (password never returned)", auth: "admin", response: EmailConfigView }),
  putConfig: endpoint({ method: "PUT", path: "/api/v1/admin/email/config", tag, summary: "Save the SMTP configuration", auth: "admin", body: EmailConfigInput, response: EmailConfigView }),
  test: endpoint({ method: "POST", path: "/api/v1/admin/email/test", tag, summary: "Send a test e-mail", auth: "admin", body: EmailTestInput, response: OkResponse , statuses: { 502: "the SMTP server refused the message", 503: "e-mail is not configured" } }),
  ping: endpoint({ method: "POST", path: "/api/v1/admin/email/ping", tag, summary: "Connect and authenticate to the SMTP server without sending", auth: "admin", response: EmailPingOutput , statuses: { 503: "e-mail is not configured" } }),
} as const;
