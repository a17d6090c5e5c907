// Helpers for *.db.test.ts: call route handlers as Next would, and make users,
// sessions and tokens without going through the UI.
import type { Actor } from "@/server/auth/actor";
import { db } from "@/server/db/client";
import { hashPassword } from "@/server/lib/password";
import type { MemberRole } from "@/server/services/namespace-access";
import { createSession } from "@/server/services/sessions";
import { createToken } from "@/server/services/credentials";
import type { Permission } from "@/server/contracts/endpoint";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface CallOptions {
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
  cookie?: string;
  token?: string;
  ip?: string;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(handler: Handler, url: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(opts.headers);
  if (opts.cookie) headers.set("cookie", opts.cookie);
  if (opts.token) headers.set("x-api-key", opts.token);
  headers.set("x-polymock-peer", opts.ip ?? "127.0.0.1");
  let body: string | undefined = opts.rawBody;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(new URL(url, "http://localhost:5770"), { method: opts.method ?? "GET", headers, body });
  // Like Next.js: routes without dynamic segments get params that resolve to undefined.
  const res = await handler(req, { params: Promise.resolve(opts.params as Record<string, string>) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

let counter = 0;

export async function makeUser(opts: { username?: string; password?: string; role?: "admin" | "user"; email?: string; namespaces?: Record<string, MemberRole> } = {}) {
  const username = opts.username ?? `user${Date.now().toString(36)}${counter++}`;
  const password = opts.password ?? "correct horse battery";
  const user = await db().user.create({
    data: { username, role: opts.role ?? "user", passwordHash: await hashPassword(password), email: opts.email ?? null },
  });
  for (const [name, role] of Object.entries(opts.namespaces ?? {})) {
    const ns = await db().namespace.upsert({ where: { name }, create: { name }, update: {} });
    await db().membership.create({ data: { namespaceId: ns.id, userId: user.id, role } });
  }
  return { user, password };
}

export async function makeNamespace(name: string, members: Record<string, MemberRole> = {}) {
  const ns = await db().namespace.upsert({ where: { name }, create: { name }, update: {} });
  for (const [userId, role] of Object.entries(members)) {
    await db().membership.create({ data: { namespaceId: ns.id, userId, role } });
  }
  return ns;
}

export async function sessionCookie(userId: string): Promise<string> {
  const { token } = await createSession(userId);
  return `polymock_session=${token}`;
}

export function actorFor(user: { id: string; username: string; role: "admin" | "user" }, permissions: Permission[] = ["read", "write", "delete"]): Actor {
  return { user: { id: user.id, username: user.username, role: user.role }, via: "session", permissions, pinnedNamespaceId: null, ip: "127.0.0.1" };
}

/** A new user owning these namespaces (created when missing), with its actor and a session cookie. */
export async function signedInOwner(...namespaces: string[]) {
  const { user } = await makeUser({ namespaces: Object.fromEntries(namespaces.map((n) => [n, "owner" as const])) });
  return { user, actor: actorFor(user), cookie: await sessionCookie(user.id) };
}

export async function makeToken(user: { id: string; username: string; role: "admin" | "user" }, opts: { permissions?: Permission[]; namespace?: string; expiresInDays?: number } = {}) {
  const created = await createToken(actorFor(user), {
    name: "test token",
    permissions: opts.permissions ?? ["read", "write", "delete"],
    namespace: opts.namespace,
    expiresInDays: opts.expiresInDays,
  });
  return created.token;
}
