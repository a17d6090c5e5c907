// A real SMTP server for tests (npm `smtp-server`) on a free 127.0.0.1 port. It
// keeps every message it receives, parsed just enough to read the envelope, the
// headers, the subject and the text body, so a test can follow a link that the
// application sent by e-mail. mailparser is not a dependency, so the MIME parsing
// below is deliberately minimal: single-part or multipart messages, quoted-printable
// or base64 bodies, RFC 2047 encoded words in headers, UTF-8 content.
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";

export interface ReceivedMail {
  /** Position in arrival order, for "a new mail since" checks. */
  seq: number;
  /** Envelope sender (MAIL FROM). */
  envelopeFrom: string;
  /** Envelope recipients (RCPT TO), as the client sent them. */
  to: string[];
  /** The user the client authenticated as, or null without AUTH. */
  authUser: string | null;
  /** Header values by lower-case name (first occurrence), encoded words decoded. */
  headers: Map<string, string>;
  subject: string;
  text: string;
  raw: string;
}

export interface AuthAttempt {
  method: string;
  username: string;
  ok: boolean;
}

export interface SmtpSinkOptions {
  /** Require AUTH (PLAIN or LOGIN) with these credentials before MAIL FROM. */
  auth?: { username: string; password: string };
  /**
   * Offer STARTTLS with smtp-server's built-in self-signed certificate. Off by
   * default: a client that verifies certificates would refuse the upgrade.
   */
  starttls?: boolean;
}

export interface SmtpSink {
  host: string;
  port: number;
  messages: ReceivedMail[];
  authAttempts: AuthAttempt[];
  /** Resolves with the first received message (past or future) the predicate accepts. */
  waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
}

interface Waiter {
  predicate: (mail: ReceivedMail) => boolean;
  resolve: (mail: ReceivedMail) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const authAttempts: AuthAttempt[] = [];
  const waiters = new Set<Waiter>();

  const disabledCommands = [...(options.starttls ? [] : ["STARTTLS"]), ...(options.auth ? [] : ["AUTH"])];

  const server = new SMTPServer({
    logger: false,
    disableReverseLookup: true,
    disabledCommands,
    authMethods: ["PLAIN", "LOGIN"],
    authOptional: !options.auth,
    // Tests talk to the sink in clear text; real servers would insist on TLS first.
    allowInsecureAuth: true,
    onAuth(auth: SMTPServerAuthentication, _session: SMTPServerSession, callback) {
      const ok = Boolean(options.auth) && auth.username === options.auth?.username && auth.password === options.auth?.password;
      authAttempts.push({ method: auth.method, username: auth.username ?? "", ok });
      if (!ok) {
        const err = Object.assign(new Error("Invalid username or password"), { responseCode: 535 });
        callback(err);
        return;
      }
      callback(null, { user: auth.username });
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (err: Error) => callback(err));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = parseMessage(raw);
        const mail: ReceivedMail = {
          seq: messages.length,
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          authUser: typeof session.user === "string" ? session.user : null,
          headers: parsed.headers,
          subject: parsed.headers.get("subject") ?? "",
          text: parsed.text,
          raw,
        };
        messages.push(mail);
        for (const w of waiters) {
          if (w.predicate(mail)) {
            waiters.delete(w);
            clearTimeout(w.timer);
            w.resolve(mail);
          }
        }
        callback();
      });
    },
  });

  const host = "127.0.0.1";
  const port = await new Promise<number>((resolve, reject) => {
    server.on("error", reject);
    // Port 0: the OS picks a free one, so parallel test files never collide.
    server.listen(0, host, () => {
      const address = server.server.address();
      if (address && typeof address === "object") resolve(address.port);
      else reject(new Error("smtp sink did not get a TCP port"));
    });
  });

  function waitForMail(predicate: (mail: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
    const already = messages.find(predicate);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        predicate,
        resolve,
        reject,
        timer: setTimeout(() => {
          waiters.delete(waiter);
          const seen = messages.map((m) => `#${m.seq} to ${m.to.join(",")}: ${m.subject}`).join("; ") || "none";
          reject(new Error(`No matching mail within ${timeoutMs} ms (received: ${seen})`));
        }, timeoutMs),
      };
      waiters.add(waiter);
    });
  }

  function stop(): Promise<void> {
    for (const w of waiters) {
      clearTimeout(w.timer);
      w.reject(new Error("smtp sink stopped"));
    }
    waiters.clear();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  return { host, port, messages, authAttempts, waitForMail, stop };
}

// ---- Minimal MIME parsing ---------------------------------------------------

interface ParsedPart {
  headers: Map<string, string>;
  text: string;
}

export function parseMessage(raw: string): ParsedPart {
  const { headers, body } = splitHeaders(raw);
  return { headers, text: textOf(headers, body) };
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : "";
  const headers = new Map<string, string>();
  // Unfold continuation lines (RFC 5322 2.2.3) before splitting into fields.
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function textOf(headers: Map<string, string>, body: string): string {
  const contentType = headers.get("content-type") ?? "text/plain";
  const type = contentType.split(";")[0].trim().toLowerCase();
  if (type.startsWith("multipart/")) {
    const boundary = param(contentType, "boundary");
    if (!boundary) return "";
    const parts = splitMultipart(body, boundary).map((p) => {
      const split = splitHeaders(p);
      return { headers: split.headers, body: split.body };
    });
    // Prefer the plain-text alternative; fall back to the first part that has text.
    const plain = parts.find((p) => (p.headers.get("content-type") ?? "text/plain").toLowerCase().startsWith("text/plain"));
    for (const part of plain ? [plain, ...parts] : parts) {
      const text = textOf(part.headers, part.body);
      if (text) return text;
    }
    return "";
  }
  if (!type.startsWith("text/")) return "";
  const bytes = decodeTransfer(body, (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase());
  return decodeCharset(bytes, param(contentType, "charset") ?? "utf-8").replace(/\r\n/g, "\n");
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    if (line === `${delimiter}--`) break;
    if (line === delimiter) {
      if (current) parts.push(current.join("\r\n"));
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) parts.push(current.join("\r\n"));
  return parts;
}

function param(headerValue: string, name: string): string | undefined {
  const re = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i");
  const m = re.exec(headerValue);
  return m ? (m[1] ?? m[2]) : undefined;
}

function decodeTransfer(body: string, encoding: string): Buffer {
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  return Buffer.from(body, "utf8");
}

/** RFC 2045 6.7: soft line breaks ("=" at line end) vanish, "=XX" is one byte. */
export function decodeQuotedPrintable(input: string): Buffer {
  const src = Buffer.from(input.replace(/=\r?\n/g, ""), "utf8");
  const isHex = (b: number | undefined) => b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
  const bytes: number[] = [];
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x3d && isHex(src[i + 1]) && isHex(src[i + 2])) {
      bytes.push(Number.parseInt(String.fromCharCode(src[i + 1], src[i + 2]), 16));
      i += 2;
    } else {
      bytes.push(src[i]);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words, e.g. `=?UTF-8?Q?Gr=C3=BC=C3=9Fe?=`; whitespace between adjacent words is dropped. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, "$1")
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, charset: string, enc: string, data: string) => {
      const bytes = enc.toUpperCase() === "B" ? Buffer.from(data, "base64") : decodeQuotedPrintable(data.replace(/_/g, " "));
      return decodeCharset(bytes, charset);
    });
}

function decodeCharset(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}
