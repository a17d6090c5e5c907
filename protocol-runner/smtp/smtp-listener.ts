// An SMTP protocol server (npm smtp-server): accepts every sender and
// recipient, optionally requires AUTH (PLAIN/LOGIN against the server's stored
// credentials) and offers STARTTLS; each message's DATA is answered by
// ./exchange.ts (the mock's code and text, 250 for unmatched mail). Messages
// over MAX_MESSAGE_BYTES are refused with 552 and not kept.
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { safeEqual } from "@/server/lib/crypto";
import { logger } from "@/server/lib/logger";
import { receiveMail, type MailServer } from "./exchange";
import { tlsCertificate } from "./tls-certificate";
import type { RunningListener } from "../listener-module";

/** Advertised with the SIZE extension; a larger message is refused with 552. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface SmtpListenerSpec extends MailServer {
  host: string;
  port: number;
  options: { auth: boolean; starttls: boolean };
  /** The protocol server's credentials; AUTH fails for everyone when auth is on and none are stored. */
  credentials: { username?: string; password?: string } | null;
  /** Called when the listener fails after it started (it is then closed). */
  onFailure(err: unknown): void;
}

/** An error smtp-server answers with its `responseCode`. */
function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

function readMessage(stream: SMTPServerDataStream): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on("data", (chunk: Buffer) => {
      // Past the limit the rest is drained, not kept.
      if (length + chunk.length <= MAX_MESSAGE_BYTES) chunks.push(chunk);
      length += chunk.length;
    });
    stream.on("error", reject);
    stream.on("end", () => resolve(stream.sizeExceeded || length > MAX_MESSAGE_BYTES ? undefined : Buffer.concat(chunks, length)));
  });
}

function envelopeOf(session: SMTPServerSession) {
  const from = session.envelope.mailFrom;
  return { from: from ? from.address : "", to: session.envelope.rcptTo.map((r) => r.address) };
}

export async function startSmtpListener(spec: SmtpListenerSpec): Promise<RunningListener> {
  const { auth, starttls } = spec.options;
  const tls = starttls ? await tlsCertificate() : undefined;
  const server = new SMTPServer({
    name: "polymock",
    banner: `polymock SMTP mock ${spec.serverName}`,
    size: MAX_MESSAGE_BYTES,
    logger: false,
    // A reconcile closes and reopens listeners: open sessions get 421 after this, not after 30 s.
    closeTimeout: 500,
    authOptional: !auth,
    authMethods: ["PLAIN", "LOGIN"],
    // A mock is a test double: AUTH is allowed on a plain connection, as on most dev mail servers.
    allowInsecureAuth: true,
    disabledCommands: [...(auth ? [] : ["AUTH"]), ...(starttls ? [] : ["STARTTLS"])],
    hideSTARTTLS: !starttls,
    ...(tls ? { key: tls.key, cert: tls.cert } : {}),
    onAuth(credentials: SMTPServerAuthentication, _session, callback) {
      const stored = spec.credentials;
      const ok = !!stored?.username && safeEqual(credentials.username ?? "", stored.username) && safeEqual(credentials.password ?? "", stored.password ?? "");
      if (!ok) return callback(smtpError(535, "Authentication credentials invalid"));
      callback(null, { user: credentials.username });
    },
    onData(stream, session, callback) {
      readMessage(stream)
        .then(async (raw) => {
          if (!raw) return callback(smtpError(552, `Message exceeds fixed maximum message size (${MAX_MESSAGE_BYTES} bytes)`));
          const answer = await receiveMail(spec, envelopeOf(session), raw);
          if (answer.code >= 400) callback(smtpError(answer.code, answer.text));
          else callback(null, answer.text);
          answer.afterSend?.();
        })
        .catch((err) => {
          logger().error({ err, namespace: spec.namespace, serverName: spec.serverName }, "SMTP message failed");
          callback(smtpError(451, "Requested action aborted: local error in processing"));
        });
    },
  });
  // Client errors (a dropped connection, a TLS handshake refused) are the client's; the listener goes on.
  const listenError = new Promise<never>((_, reject) => server.once("error", reject));
  await Promise.race([
    listenError,
    new Promise<void>((resolve) => {
      server.server.once("listening", () => resolve());
      server.listen({ port: spec.port, host: spec.host, exclusive: true });
    }),
  ]);
  listenError.catch(() => {});
  server.on("error", (err: NodeJS.ErrnoException) => {
    // smtp-server emits connection-level errors here too; only the server's own are fatal.
    if (err.code === "EADDRINUSE" || err.code === "EACCES") spec.onFailure(err);
    else logger().debug({ err, serverName: spec.serverName }, "SMTP connection error");
  });
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
