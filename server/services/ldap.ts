// LDAP sign-in against an admin-configured directory (ldapts), and the admin's
// connection test. The directory decides who someone is and whether the password
// is right; the local User row only mirrors the directory's name and e-mail.
import net from "node:net";
import tls from "node:tls";
import { BusyError, Client, type Entry, Filter, ResultCodeError, UnavailableError } from "ldapts";
import { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { LdapLoginInput } from "@/server/contracts/auth";
import { Username } from "@/server/contracts/common";
import { LdapConfig, type LdapTestInput, type LdapTestOutput } from "@/server/contracts/identity-providers";
import { db, type IdentityProvider, Prisma, type User } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { logger } from "@/server/lib/logger";
import { recordAudit } from "./audit";
import { type ClientMeta, completeLogin, recordFailedLogin } from "./auth";
import { findEnabledProvider, providerSecret } from "./identity-providers";

const INVALID_LOGIN = "Invalid username or password";
const DirectoryEmail = z.string().email().max(254);

type Step = "connect" | "bind" | "search" | "user_bind";
type StepResult = z.infer<typeof LdapTestOutput>["steps"][number];

interface Connection {
  client: Client;
  close(): Promise<void>;
}

interface DirectoryUser {
  dn: string;
  username: string;
  email: string | null;
  fullName: string;
}

/**
 * A directory failure, tagged with its step and whose it is to fix: the network's
 * (503), the user's (wrong password, unknown name) or the admin's (service
 * account, base DN, filter), which the server log should tell operators about.
 */
class DirectoryError extends Error {
  constructor(
    readonly step: Step,
    readonly kind: "unreachable" | "user" | "config",
    message: string,
  ) {
    super(message);
  }
}

// ---- Talking to the directory ------------------------------------------------

function isUnreachable(err: unknown): boolean {
  if (err instanceof UnavailableError || err instanceof BusyError) return true;
  if (err instanceof ResultCodeError) return false;
  // Socket and TLS errors carry a string code; ldapts' own timeouts and dropped connections only a message.
  const e = err as { code?: unknown; message?: string } | null;
  return typeof e?.code === "string" || /^(Connection (timeout|closed)|Socket )|: Operation timed out$/.test(e?.message ?? "");
}

async function directoryCall<T>(step: Step, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const kind = step === "connect" || isUnreachable(err) ? "unreachable" : step === "user_bind" ? "user" : "config";
    throw new DirectoryError(step, kind, err instanceof Error ? err.message : String(err));
  }
}

function openSocket(secure: boolean, port: number, tlsOptions: tls.ConnectionOptions & { host: string }, timeoutMs: number) {
  return new Promise<net.Socket>((resolve, reject) => {
    const socket = secure ? tls.connect({ ...tlsOptions, port }) : net.connect({ host: tlsOptions.host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`Connection timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once(secure ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      // Until ldapts takes the socket over on its first operation, an error must not crash the process.
      socket.on("error", () => {});
      resolve(socket);
    });
  });
}

/**
 * ldapts connects lazily inside its first operation; opening the socket here makes
 * "connect" a step of its own, so an unreachable server is never mistaken for a
 * rejected password.
 */
async function connectDirectory(config: LdapConfig): Promise<Connection> {
  const url = new URL(config.url);
  const secure = url.protocol === "ldaps:";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1") || "localhost";
  const port = Number(url.port) || (secure ? 636 : 389);
  const tlsOptions = () => ({ host, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: config.tlsRejectUnauthorized });
  const socket = await directoryCall("connect", () => openSocket(secure, port, tlsOptions(), config.timeoutMs));
  const client = new Client({
    url: config.url,
    timeout: config.timeoutMs,
    connectTimeout: config.timeoutMs,
    ...(secure ? { createSecureConnection: () => socket as tls.TLSSocket } : { createConnection: () => socket }),
  });
  const close = async () => {
    await client.unbind().catch(() => {});
    // ldapts only owns the socket once an operation ran; a step that failed before that leaves it to us.
    socket.destroy();
  };
  if (config.startTls && !secure) {
    await directoryCall("connect", () => client.startTLS(tlsOptions())).catch(async (err) => {
      await close();
      throw err;
    });
  }
  return { client, close };
}

async function withDirectory<T>(config: LdapConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const { client, close } = await connectDirectory(config);
  try {
    return await fn(client);
  } finally {
    await close();
  }
}

async function bindAs(client: Client, step: Step, dn: string, password: string) {
  // A simple bind with a DN and an empty password is an unauthenticated bind,
  // which directories answer with success (RFC 4513 §5.1.2).
  if (!password) throw new DirectoryError(step, step === "user_bind" ? "user" : "config", "empty password: the directory would take it as an unauthenticated bind, so it is not sent");
  await directoryCall(step, () => client.bind(dn, password));
}

async function bindService(client: Client, config: LdapConfig, password: string | null) {
  if (!config.bindDn) return directoryCall("bind", () => client.bind("", ""));
  await bindAs(client, "bind", config.bindDn, password ?? "");
}

function attribute(entry: Entry, name: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : entry[key];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return null;
  return Buffer.isBuffer(first) ? first.toString("utf8") : first;
}

function toDirectoryUser(entry: Entry, config: LdapConfig, loginName: string): DirectoryUser {
  const email = DirectoryEmail.safeParse(attribute(entry, config.emailAttribute));
  return {
    dn: entry.dn,
    // The directory's spelling wins, so "ALICE" and "alice" map to one local account.
    username: attribute(entry, config.usernameAttribute) ?? loginName,
    email: email.success ? email.data : null,
    fullName: (attribute(entry, config.nameAttribute) ?? "").slice(0, 200),
  };
}

async function findUser(client: Client, config: LdapConfig, username: string): Promise<DirectoryUser> {
  // A function replacement, so '$&' and friends in a username stay literal.
  const filter = config.userFilter.replaceAll("{{username}}", () => Filter.escape(username));
  const attributes = [config.usernameAttribute, config.emailAttribute, config.nameAttribute];
  const { searchEntries } = await directoryCall("search", () => client.search(config.baseDn, { scope: "sub", filter, attributes, sizeLimit: 2 }));
  if (searchEntries.length === 0) throw new DirectoryError("search", "user", `no entry under ${config.baseDn} matches ${filter}`);
  if (searchEntries.length > 1) throw new DirectoryError("search", "config", `several entries match ${filter}; the user filter must identify one`);
  return toDirectoryUser(searchEntries[0], config, username);
}

async function countEntries(client: Client, config: LdapConfig): Promise<number> {
  const { searchEntries } = await directoryCall("search", () =>
    client.search(config.baseDn, { scope: "sub", attributes: ["1.1"], sizeLimit: 1000 }),
  );
  return searchEntries.length;
}

// ---- Login -------------------------------------------------------------------

async function pickProvider(slug: string | undefined): Promise<IdentityProvider> {
  if (slug) return findEnabledProvider(slug, "ldap");
  const first = await db().identityProvider.findFirst({ where: { type: "ldap", enabled: true }, orderBy: { name: "asc" } });
  if (!first) throw errors.notFound("Identity provider");
  return first;
}

async function loginFailed(username: string, meta: ClientMeta, reason: string): Promise<AppError> {
  await recordFailedLogin(username, "ldap", meta, reason);
  return new AppError("unauthorized", INVALID_LOGIN);
}

async function authenticateInDirectory(provider: IdentityProvider, input: z.infer<typeof LdapLoginInput>, meta: ClientMeta) {
  if (!input.password) throw await loginFailed(input.username, meta, "empty password");
  const config = LdapConfig.parse(provider.config);
  try {
    return await withDirectory(config, async (client) => {
      await bindService(client, config, providerSecret(provider));
      const found = await findUser(client, config, input.username);
      await bindAs(client, "user_bind", found.dn, input.password);
      return found;
    });
  } catch (err) {
    if (!(err instanceof DirectoryError)) throw err;
    const reason = `${err.step}: ${err.message}`;
    if (err.kind === "unreachable") {
      await recordFailedLogin(input.username, "ldap", meta, reason);
      throw errors.unavailable("The LDAP directory cannot be reached; try again later");
    }
    if (err.kind === "config") logger().warn({ provider: provider.slug, step: err.step, err: err.message }, "LDAP provider misconfigured");
    throw await loginFailed(input.username, meta, reason);
  }
}

/** undefined: keep the current address, because another account already uses it. */
async function usableEmail(found: DirectoryUser, userId: string | null): Promise<string | null | undefined> {
  if (!found.email) return null;
  const owner = await db().user.findFirst({ where: { email: found.email }, select: { id: true } });
  return owner && owner.id !== userId ? undefined : found.email;
}

async function refreshProfile(user: User, found: DirectoryUser): Promise<User> {
  const email = await usableEmail(found, user.id);
  const emailChanged = email !== undefined && email !== user.email;
  if (!emailChanged && found.fullName === user.fullName) return user;
  return db().user.update({
    where: { id: user.id },
    // Addresses from the admin-managed directory count as verified.
    data: { fullName: found.fullName, ...(emailChanged ? { email, emailVerifiedAt: email ? new Date() : null } : {}) },
  });
}

async function createLdapUser(found: DirectoryUser): Promise<User> {
  const email = (await usableEmail(found, null)) ?? null;
  try {
    return await db().user.create({
      data: { username: found.username, authSource: "ldap", fullName: found.fullName, email, emailVerifiedAt: email ? new Date() : null },
    });
  } catch (err) {
    // Two first logins at once: the other one created the row.
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      const raced = await db().user.findUnique({ where: { username: found.username } });
      if (raced?.authSource === "ldap") return raced;
    }
    throw err;
  }
}

async function localUserFor(provider: IdentityProvider, found: DirectoryUser, loginName: string, meta: ClientMeta): Promise<User> {
  const existing = await db().user.findUnique({ where: { username: found.username } });
  if (existing && existing.authSource !== "ldap") {
    await recordFailedLogin(loginName, "ldap", meta, `username belongs to a ${existing.authSource} account`);
    throw errors.conflict(`The username '${found.username}' belongs to an account that does not sign in with LDAP; ask an administrator`);
  }
  if (existing) return refreshProfile(existing, found);
  if (!provider.autoCreateUsers) throw await loginFailed(loginName, meta, "no local user and the provider does not create users");
  if (!Username.safeParse(found.username).success) throw await loginFailed(loginName, meta, `directory username '${found.username}' is not a valid username`);
  return createLdapUser(found);
}

export async function ldapLogin(input: z.infer<typeof LdapLoginInput>, meta: ClientMeta) {
  const provider = await pickProvider(input.provider);
  const found = await authenticateInDirectory(provider, input, meta);
  const user = await localUserFor(provider, found, input.username, meta);
  return completeLogin(user, "ldap", meta);
}

// ---- Connection test -----------------------------------------------------------

async function testTarget(input: z.infer<typeof LdapTestInput>) {
  const saved = input.providerId ? await db().identityProvider.findUnique({ where: { id: input.providerId } }) : null;
  if (input.providerId && saved?.type !== "ldap") throw errors.notFound("LDAP provider");
  const savedConfig = saved ? LdapConfig.parse(saved.config) : null;
  const config = input.config ?? savedConfig;
  if (!config) throw errors.validation("give providerId or config");
  // The saved bind password goes only to the saved server, never to a URL typed into the test form.
  const reuseSecret = saved !== null && config.url === savedConfig?.url;
  return { config, bindPassword: input.bindPassword ?? (reuseSecret ? providerSecret(saved) : null) };
}

/** Runs one step and records it; a failed step ends the test. */
async function runStep<T>(steps: StepResult[], step: Step, fn: () => Promise<T>, describe: (value: T) => string): Promise<T> {
  try {
    const value = await fn();
    steps.push({ step, ok: true, message: describe(value) });
    return value;
  } catch (err) {
    if (!(err instanceof DirectoryError)) throw err;
    steps.push({ step, ok: false, message: err.message });
    throw err;
  }
}

async function runChecks(client: Client, steps: StepResult[], config: LdapConfig, input: z.infer<typeof LdapTestInput>, bindPassword: string | null) {
  await runStep(steps, "bind", () => bindService(client, config, bindPassword), () => (config.bindDn ? `Bound as ${config.bindDn}` : "Bound anonymously"));
  if (!input.username) {
    await runStep(steps, "search", () => countEntries(client, config), (n) => `Found ${n >= 1000 ? "at least 1000" : n} entries under ${config.baseDn}`);
    return null;
  }
  const username = input.username;
  const found = await runStep(steps, "search", () => findUser(client, config, username), (u) => `Found ${u.dn}`);
  if (input.password !== undefined) {
    const password = input.password;
    await runStep(steps, "user_bind", () => bindAs(client, "user_bind", found.dn, password), () => `Password accepted for ${found.dn}`);
  }
  return found;
}

export async function testLdapConnection(actor: Actor, input: z.infer<typeof LdapTestInput>): Promise<z.infer<typeof LdapTestOutput>> {
  const { config, bindPassword } = await testTarget(input);
  const steps: StepResult[] = [];
  let user: DirectoryUser | null = null;
  try {
    const { client, close } = await runStep(steps, "connect", () => connectDirectory(config), () => `Connected to ${config.url}${config.startTls ? " with StartTLS" : ""}`);
    try {
      user = await runChecks(client, steps, config, input, bindPassword);
    } finally {
      await close();
    }
  } catch (err) {
    if (!(err instanceof DirectoryError)) throw err;
  }
  const ok = steps.every((s) => s.ok);
  await recordAudit({
    actor,
    action: "admin.ldap_test",
    outcome: ok ? "success" : "failure",
    targetType: input.providerId ? "identity_provider" : undefined,
    targetId: input.providerId ?? null,
    details: { url: config.url, username: input.username ?? null, failedStep: steps.find((s) => !s.ok)?.step ?? null },
  });
  return { ok, steps, user: user && { dn: user.dn, username: user.username, email: user.email, fullName: user.fullName } };
}
