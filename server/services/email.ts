// The admin SMTP configuration and sending through it (nodemailer).
import nodemailer from "nodemailer";
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { EmailConfigInput, EmailConfigView } from "@/server/contracts/email";
import { AppError, errors } from "@/server/errors";
import { recordAudit } from "./audit";
import { readSetting, writeSetting } from "./settings";

const KEY = "email.smtp";
type StoredConfig = Omit<EmailConfigInput, "password">;

export async function getEmailConfig(): Promise<z.infer<typeof EmailConfigView>> {
  const stored = await readSetting<StoredConfig>(KEY);
  if (!stored) {
    return { enabled: false, host: "", port: 587, secure: false, from: "", tlsRejectUnauthorized: true, hasPassword: false, configured: false };
  }
  return { ...stored.value, hasPassword: Boolean(stored.secret), configured: true };
}

export async function saveEmailConfig(actor: Actor, input: EmailConfigInput) {
  const { password, ...rest } = input;
  await writeSetting(KEY, rest, password);
  await recordAudit({ actor, action: "admin.email_config_update", targetType: "setting", targetId: KEY, details: { host: rest.host, port: rest.port } });
  return getEmailConfig();
}

async function transport() {
  const stored = await readSetting<StoredConfig>(KEY);
  if (!stored || !stored.value.enabled) throw errors.unavailable("E-mail is not configured: an admin sets SMTP under Admin › E-mail");
  const c = stored.value;
  const t = nodemailer.createTransport({
    host: c.host,
    port: c.port,
    secure: c.secure,
    auth: c.username ? { user: c.username, pass: stored.secret ?? "" } : undefined,
    tls: { rejectUnauthorized: c.tlsRejectUnauthorized },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return { t, from: c.from };
}

export async function emailConfigured(): Promise<boolean> {
  const stored = await readSetting<StoredConfig>(KEY);
  return Boolean(stored?.value.enabled);
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export async function sendMail(mail: Mail) {
  const { t, from } = await transport();
  try {
    await t.sendMail({ from, ...mail });
  } catch (err) {
    throw new AppError("external", `The SMTP server refused the message: ${(err as Error).message}`, { status: 502 });
  } finally {
    t.close();
  }
}

export async function pingEmail() {
  const { t } = await transport();
  try {
    await t.verify();
    return { ok: true, message: "Connected and authenticated" };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  } finally {
    t.close();
  }
}

export async function sendTestEmail(actor: Actor, to: string) {
  await sendMail({ to, subject: "Polymock test e-mail", text: "This is a test e-mail from Polymock. Your SMTP settings work." });
  await recordAudit({ actor, action: "admin.email_test", details: { to } });
  return { ok: true as const };
}
