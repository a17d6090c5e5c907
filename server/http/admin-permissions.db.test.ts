// Admin endpoints × the credential that carries the admin role: the role alone
// is not enough, a token or integration credential also needs `write` for
// changes and `delete` for deletions (REST and tRPC alike). Every row re-reads
// the database, so a refused call is proven to have changed nothing.
import { beforeAll, describe, expect, it } from "vitest";
import * as users from "@/app/api/v1/admin/users/route";
import * as userOne from "@/app/api/v1/admin/users/[id]/route";
import * as userPassword from "@/app/api/v1/admin/users/[id]/password/route";
import * as userDisable from "@/app/api/v1/admin/users/[id]/disable/route";
import * as adminNsOne from "@/app/api/v1/admin/namespaces/[namespace]/route";
import * as integrations from "@/app/api/v1/integrations/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { authenticate } from "@/server/auth/authenticate";
import type { Permission } from "@/server/contracts/endpoint";
import { db } from "@/server/db/client";
import { createIntegration } from "@/server/services/integrations";
import { actorFor, call, makeNamespace, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

type Caller = { cookie?: string; token?: string };
const callers: Record<string, Caller> = {};
let n = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${n++}`;

beforeAll(async () => {
  const { user: admin } = await makeUser({ username: "root", role: "admin" });
  const { user: plain } = await makeUser({ username: "plain" });
  const token = (permissions: Permission[]) => makeToken(admin, { permissions });
  callers.adminSession = { cookie: await sessionCookie(admin.id) };
  callers.adminTokenRead = { token: await token(["read"]) };
  callers.adminTokenReadWrite = { token: await token(["read", "write"]) };
  callers.adminTokenReadDelete = { token: await token(["read", "delete"]) };
  callers.adminTokenAll = { token: await token(["read", "write", "delete"]) };
  callers.integrationRead = { token: (await createIntegration(actorFor(admin), { name: "ci", permissions: ["read"] })).token };
  callers.userSession = { cookie: await sessionCookie(plain.id) };
  callers.anonymous = {};
});

async function newUser() {
  return (await makeUser({ username: unique("target") })).user;
}

/** One admin operation: what it needs, how to call it, and whether it took effect (read back from the database). */
interface Action {
  needs: Permission;
  run(c: Caller): Promise<{ status: number; tookEffect: () => Promise<boolean> }>;
}

const actions: Record<string, Action> = {
  "list users": {
    needs: "read",
    async run(c) {
      const r = await call(users.GET, "/api/v1/admin/users", c);
      return { status: r.status, tookEffect: async () => Array.isArray(r.body?.users) };
    },
  },
  "create a user": {
    needs: "write",
    async run(c) {
      const username = unique("created");
      const r = await call(users.POST, "/api/v1/admin/users", { ...c, method: "POST", body: { username, password: "a long password" } });
      return { status: r.status, tookEffect: async () => (await db().user.count({ where: { username } })) === 1 };
    },
  },
  "make a user admin": {
    needs: "write",
    async run(c) {
      const target = await newUser();
      const r = await call(userOne.PUT, `/api/v1/admin/users/${target.id}`, { ...c, method: "PUT", params: { id: target.id }, body: { role: "admin" } });
      return { status: r.status, tookEffect: async () => (await db().user.findUniqueOrThrow({ where: { id: target.id } })).role === "admin" };
    },
  },
  "reset a password": {
    needs: "write",
    async run(c) {
      const target = await newUser();
      const r = await call(userPassword.PUT, `/api/v1/admin/users/${target.id}/password`, { ...c, method: "PUT", params: { id: target.id }, body: { password: "attacker chosen pw" } });
      return { status: r.status, tookEffect: async () => (await db().user.findUniqueOrThrow({ where: { id: target.id } })).passwordHash !== target.passwordHash };
    },
  },
  "disable a user": {
    needs: "write",
    async run(c) {
      const target = await newUser();
      const r = await call(userDisable.POST, `/api/v1/admin/users/${target.id}/disable`, { ...c, method: "POST", params: { id: target.id } });
      return { status: r.status, tookEffect: async () => (await db().user.findUniqueOrThrow({ where: { id: target.id } })).disabledAt !== null };
    },
  },
  "delete a user": {
    needs: "delete",
    async run(c) {
      const target = await newUser();
      const r = await call(userOne.DELETE, `/api/v1/admin/users/${target.id}`, { ...c, method: "DELETE", params: { id: target.id } });
      return { status: r.status, tookEffect: async () => (await db().user.count({ where: { id: target.id } })) === 0 };
    },
  },
  "delete a namespace": {
    needs: "delete",
    async run(c) {
      const ns = await makeNamespace(unique("ns"));
      const r = await call(adminNsOne.DELETE, `/api/v1/admin/namespaces/${ns.name}`, { ...c, method: "DELETE", params: { namespace: ns.name } });
      return { status: r.status, tookEffect: async () => (await db().namespace.findUniqueOrThrow({ where: { id: ns.id } })).deletedAt !== null };
    },
  },
  "create an integration credential": {
    needs: "write",
    async run(c) {
      const name = unique("integration");
      const r = await call(integrations.POST, "/api/v1/integrations", { ...c, method: "POST", body: { name, permissions: ["read"] } });
      return { status: r.status, tookEffect: async () => (await db().credential.count({ where: { name } })) === 1 };
    },
  },
};

// caller → the permissions its credential carries (null: not an admin at all; undefined: anonymous).
const rows: [string, Permission[] | null | undefined][] = [
  ["adminSession", ["read", "write", "delete"]],
  ["adminTokenAll", ["read", "write", "delete"]],
  ["adminTokenReadWrite", ["read", "write"]],
  ["adminTokenReadDelete", ["read", "delete"]],
  ["adminTokenRead", ["read"]],
  ["integrationRead", ["read"]],
  ["userSession", null],
  ["anonymous", undefined],
];

const table = rows.flatMap(([caller, permissions]) =>
  Object.keys(actions).map((action) => {
    const needs = actions[action].needs;
    const expected = permissions === undefined ? 401 : permissions === null || !permissions.includes(needs) ? 403 : "2xx";
    return [caller, action, expected] as const;
  }),
);

describe("REST admin endpoints × credential permissions", () => {
  it.each(table)("%s: %s → %s", async (caller, action, expected) => {
    const { status, tookEffect } = await actions[action].run(callers[caller]);
    if (expected === "2xx") {
      expect(status).toBeGreaterThanOrEqual(200);
      expect(status).toBeLessThan(300);
      expect(await tookEffect()).toBe(true);
    } else {
      expect(status).toBe(expected);
      expect(await tookEffect()).toBe(false);
    }
  });
});

describe("tRPC admin procedures × credential permissions", () => {
  const trpcAs = async (caller: string) => {
    const c = callers[caller];
    const headers = new Headers();
    if (c.token) headers.set("x-api-key", c.token);
    if (c.cookie) headers.set("cookie", c.cookie);
    const actor = await authenticate(headers, "127.0.0.1");
    return createCaller({ actor, authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext);
  };

  const trpcRows: [string, "list" | "create" | "remove", "ok" | "FORBIDDEN"][] = [
    ["adminTokenRead", "list", "ok"],
    ["adminTokenRead", "create", "FORBIDDEN"],
    ["adminTokenRead", "remove", "FORBIDDEN"],
    ["adminTokenReadWrite", "create", "ok"],
    ["adminTokenReadWrite", "remove", "FORBIDDEN"],
    ["adminTokenReadDelete", "remove", "ok"],
    ["integrationRead", "create", "FORBIDDEN"],
    ["adminSession", "create", "ok"],
    ["adminSession", "remove", "ok"],
  ];

  it.each(trpcRows)("%s: users.%s → %s", async (caller, procedure, expected) => {
    const api = await trpcAs(caller);
    const target = await newUser();
    const username = unique("trpc");
    const attempt =
      procedure === "list"
        ? api.users.list({ offset: 0, limit: 10 })
        : procedure === "create"
          ? api.users.create({ username, password: "a long password", role: "user" })
          : api.users.remove({ id: target.id });
    if (expected === "ok") await attempt;
    else await expect(attempt).rejects.toMatchObject({ code: expected });
    const created = (await db().user.count({ where: { username } })) === 1;
    const removed = (await db().user.count({ where: { id: target.id } })) === 0;
    expect(created).toBe(procedure === "create" && expected === "ok");
    expect(removed).toBe(procedure === "remove" && expected === "ok");
  });
});
