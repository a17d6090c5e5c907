// A received message as the rest of the runner needs it: mailparser's parse
// plus the SMTP envelope become the mail the engine matches (SmtpMail), the
// mail's headers in both shapes (engine: lower-case lists; mailbox: ordered
// pairs as written), and its attachments.
import { convert as htmlToText } from "html-to-text";
import type { AddressObject, HeaderValue, ParsedMail } from "mailparser";
import type { SmtpMail } from "@/server/engine/protocols/smtp";
import type { ReceivedAttachment } from "@/server/services/smtp-mailbox";

export interface Envelope {
  /** MAIL FROM; "" for the null sender (bounces). */
  from: string;
  /** RCPT TO, in the order given. */
  to: string[];
}

export interface ParsedReceived {
  mail: SmtpMail;
  /** Lower-case names, lists of values: what headerConditions and $.reqHeader read. */
  engineHeaders: Record<string, string[]>;
  /** In message order, names as written. */
  headerPairs: { name: string; value: string }[];
  headerFrom: string | null;
  headerTo: string | null;
  cc: string | null;
  attachments: ReceivedAttachment[];
}

const addressText = (a: AddressObject | AddressObject[] | undefined) => (a === undefined ? null : (Array.isArray(a) ? a.map((x) => x.text).join(", ") : a.text) || null);
const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (a === undefined ? [] : Array.isArray(a) ? a : [a]).flatMap((o) => o.value.flatMap((v) => (v.address ? [v.address] : (v.group ?? []).flatMap((g) => (g.address ? [g.address] : [])))));

/** A header's value as text: mailparser's decoded form for a header that appears once, else the raw line unfolded. */
function headerText(parsed: HeaderValue | undefined, rawLine: string, repeated: boolean): string {
  if (!repeated) {
    if (typeof parsed === "string") return parsed;
    if (parsed && typeof parsed === "object" && "text" in parsed && typeof parsed.text === "string") return parsed.text;
  }
  const colon = rawLine.indexOf(":");
  return rawLine.slice(colon + 1).replace(/\r?\n[ \t]+/g, " ").trim();
}

export function fromParsed(parsed: ParsedMail, envelope: Envelope): ParsedReceived {
  const counts = new Map<string, number>();
  for (const h of parsed.headerLines) counts.set(h.key, (counts.get(h.key) ?? 0) + 1);
  const headerPairs: ParsedReceived["headerPairs"] = [];
  const engineHeaders: Record<string, string[]> = {};
  for (const h of parsed.headerLines) {
    const colon = h.line.indexOf(":");
    const name = colon > 0 ? h.line.slice(0, colon).trim() : h.key;
    const value = headerText(parsed.headers.get(h.key), h.line, (counts.get(h.key) ?? 0) > 1);
    headerPairs.push({ name, value });
    (engineHeaders[h.key] ??= []).push(value);
  }
  const headerFromAddress = parsed.from?.value[0]?.address ?? "";
  const attachments: ReceivedAttachment[] = parsed.attachments.map((a) => ({
    filename: a.filename ?? null,
    contentType: a.contentType || "application/octet-stream",
    contentId: a.contentId ?? null,
    inline: a.contentDisposition === "inline",
    content: a.content,
  }));
  const mail: SmtpMail = {
    // The envelope is what the server was told; a bounce's empty sender falls back to the From header.
    from: envelope.from || headerFromAddress,
    to: envelope.to,
    cc: addresses(parsed.cc),
    subject: parsed.subject ?? "",
    // mailparser derives text from a lone HTML part but not from one inside multipart: do it here, the same way.
    text: parsed.text || (parsed.html ? htmlToText(parsed.html, { wordwrap: false }) : ""),
    html: parsed.html || null,
    headers: Object.fromEntries(Object.entries(engineHeaders).map(([k, v]) => [k, v.join(", ")])),
    attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })),
  };
  return { mail, engineHeaders, headerPairs, headerFrom: addressText(parsed.from), headerTo: addressText(parsed.to), cc: addressText(parsed.cc), attachments };
}

export async function parseReceived(raw: Buffer, envelope: Envelope): Promise<ParsedReceived> {
  // Loaded with the first mail: mailparser takes a second to import, which the runner's start need not wait for.
  const { simpleParser } = await import("mailparser");
  // Links are left as sent: the console shows the HTML in a sandboxed frame, the text as text.
  const parsed = await simpleParser(raw, { skipHtmlToText: false, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true });
  return fromParsed(parsed, envelope);
}
