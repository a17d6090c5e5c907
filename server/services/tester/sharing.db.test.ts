// Collection sharing, the cross-Space rules and the people lookup, through
// the real route handlers and a real PostgreSQL. Two tables: one row per
// sharing rule (spec "Sharing rules") and one per cross-Space rule (spec
// "Cross-Space rules" and the Preflight); then the people lookup's limits.
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/api-tester/collections/route";
import * as oneRoute from "@/app/api/v1/api-tester/collections/[id]/route";
import * as duplicateRoute from "@/app/api/v1/api-tester/collections/[id]/duplicate/route";
import * as exportRoute from "@/app/api/v1/api-tester/collections/[id]/export/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as requestRoute from "@/app/api/v1/api-tester/requests/[id]/route";
import * as executeCollectionRoute from "@/app/api/v1/api-tester/collections/[id]/execute/route";
import * as executeMultipleRoute from "@/app/api/v1/api-tester/collections/execute-multiple/route";
import * as executeRoute from "@/app/api/v1/api-tester/requests/execute/route";
import * as withScriptsRoute from "@/app/api/v1/api-tester/requests/execute-with-scripts/route";
import * as clientRoute from "@/app/api/v1/api-tester/requests/execute-client/route";
import * as scriptRoute from "@/app/api/v1/api-tester/scripts/execute/route";
import * as historyRoute from "@/app/api/v1/api-tester/requests/history/route";
import * as shareUsersRoute from "@/app/api/v1/api-tester/collections/[id]/sharing/users/route";
import * as shareSpacesRoute from "@/app/api/v1/api-tester/collections/[id]/sharing/spaces/route";
import * as usersRoute from "@/app/api/v1/api-tester/collections/[id]/users/route";
import * as userRoute from "@/app/api/v1/api-tester/collections/[id]/users/[userId]/route";
import * as roleRoute from "@/app/api/v1/api-tester/collections/[id]/users/[userId]/role/route";
import * as spacesRoute from "@/app/api/v1/api-tester/collections/[id]/spaces/route";
import * as spaceRoute from "@/app/api/v1/api-tester/collections/[id]/spaces/[namespace]/route";
import * as searchRoute from "@/app/api/v1/api-tester/users/search/route";
import * as lookupRoute from "@/app/api/v1/users/lookup/route";
import * as schedulesRoute from "@/app/api/v1/api-tester/schedules/route";
import * as mocksFromCollectionRoute from "@/app/api/v1/api-tester/mocks-from-collection/route";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { actorFor, call, makeNamespace, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { assertCollectionUsable, resolveCollectionAccess } from "./collection-access";
import { openVariables, storedVariables } from "./secrets";

useTestDatabase();

type User = Awaited<ReturnType<typeof makeUser>>["user"];
const A = "alpha"; // the collections' own Space
const B = "beta"; // a Space they are shared into
const G = "gamma"; // a Space the granters cannot read
const NOBODY = "00000000-0000-4000-8000-000000000000";

const u: Record<string, User> = {};
const cookie: Record<string, string> = {};
let shared: string; // alpha's collection shared into beta
let sharedRequest: string;
let trashed: string;

async function person(key: string, namespaces: Record<string, "owner" | "editor" | "viewer">, extra: { fullName?: string; email?: string } = {}) {
  const { user } = await makeUser({ namespaces, username: `${key}-${Math.random().toString(36).slice(2, 7)}` });
  u[key] = extra.fullName || extra.email ? await db().user.update({ where: { id: user.id }, data: extra }) : user;
  cookie[key] = await sessionCookie(user.id);
}

const base = "/api/v1/api-tester/collections";
const post = (route: { POST: any }, path: string, who: string, body: unknown, params: Record<string, string> = {}, ns = A) =>
  call(route.POST, `${path}?namespace=${ns}`, { method: "POST", cookie: cookie[who], body, params });
const get = (route: { GET: any }, path: string, who: string, params: Record<string, string> = {}, ns = A) => call(route.GET, `${path}?namespace=${ns}`, { cookie: cookie[who], params });

const shareUsers = (id: string, who: string, body: unknown) => post(shareUsersRoute, `${base}/${id}/sharing/users`, who, body, { id });
const shareSpaces = (id: string, who: string, body: unknown) => post(shareSpacesRoute, `${base}/${id}/sharing/spaces`, who, body, { id });
const listUsers = (id: string, who = "owner", ns = A) => get(usersRoute, `${base}/${id}/users`, who, { id }, ns);
const listSpaces = (id: string, who = "owner") => get(spacesRoute, `${base}/${id}/spaces`, who, { id });
const setRole = (id: string, userId: string, who: string, role: string) => call(roleRoute.PUT, `${base}/${id}/users/${userId}/role?namespace=${A}`, { method: "PUT", cookie: cookie[who], body: { role }, params: { id, userId } });
const removeUser = (id: string, userId: string, who = "owner") => call(userRoute.DELETE, `${base}/${id}/users/${userId}?namespace=${A}`, { method: "DELETE", cookie: cookie[who], params: { id, userId } });
const removeSpace = (id: string, namespace: string, who = "owner") => call(spaceRoute.DELETE, `${base}/${id}/spaces/${namespace}?namespace=${A}`, { method: "DELETE", cookie: cookie[who], params: { id, namespace } });
const listIn = (ns: string, who: string) => get(listRoute, base, who, {}, ns);
const getIn = (id: string, ns: string, who: string) => get(oneRoute, `${base}/${id}`, who, { id }, ns);

async function newCollection(name: string, who = "owner") {
  const r = await post(listRoute, base, who, { name, variables: [{ key: "token", value: "s3cret", secret: true }, { key: "host", value: "http://127.0.0.1:9" }], scripts: { preRequest: "pm.variables.set('x', '{{host}}')", test: "pm.test('ok', () => {})" } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
async function newRequest(collectionId: string) {
  const r = await post(requestsRoute, `${base}/${collectionId}/requests`, "owner", { name: "Ping", method: "GET", url: "{{host}}/ping", scripts: { test: "pm.test('t', () => {})" } }, { id: collectionId });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
const names = (r: { body: { users: { userId?: string; id: string }[] } }) => r.body.users.map((x) => x.id);

beforeAll(async () => {
  await person("owner", { [A]: "owner", [B]: "editor" });
  await person("editor", { [A]: "editor", [B]: "viewer" });
  await person("viewer", { [A]: "viewer" });
  await person("member", { [A]: "viewer" }, { fullName: "Mia Member", email: "mia@example.test" });
  await person("betaUser", { [B]: "editor" });
  await person("stranger", { [G]: "owner" });
  await person("disabled", { [A]: "viewer" });
  await person("revoked", { [A]: "viewer" });
  await person("later", { [A]: "viewer" });
  await makeNamespace(G);
  shared = await newCollection("Shared API");
  sharedRequest = await newRequest(shared);
  expect((await shareSpaces(shared, "owner", { namespaces: [B] })).status).toBe(200);
  trashed = await newCollection("Trashed");
  expect((await shareSpaces(trashed, "owner", { namespaces: [B] })).status).toBe(200);
  await call(oneRoute.DELETE, `${base}/${trashed}?namespace=${A}`, { method: "DELETE", cookie: cookie.owner, params: { id: trashed } });
});

interface Row {
  rule: string;
  run: () => Promise<{ status: number; body: any }>;
  status: number;
  check?: (body: any) => void | Promise<void>;
}

describe("sharing rules", () => {
  const rows: Row[] = [
    { rule: "sharing with users is refused while the collection is in the trash", run: () => shareUsers(trashed, "owner", { userIds: [u.member.id] }), status: 409 },
    { rule: "sharing into Spaces is refused while the collection is in the trash", run: () => shareSpaces(trashed, "owner", { namespaces: [B] }), status: 409 },
    { rule: "changing a role is refused while the collection is in the trash", run: () => setRole(trashed, u.member.id, "owner", "viewer"), status: 409 },
    { rule: "removing a user share is refused while the collection is in the trash", run: () => removeUser(trashed, u.member.id), status: 409 },
    { rule: "removing a Space share is refused while the collection is in the trash", run: () => removeSpace(trashed, B), status: 409, check: async () => expect((await db().testerCollectionSpaceGrant.count({ where: { collectionId: trashed } }))).toBe(1) },
    { rule: "changing the role of a user share that does not exist is 404", run: () => setRole(shared, u.later.id, "owner", "editor"), status: 404 },
    { rule: "removing a user share that does not exist is 404", run: () => removeUser(shared, u.later.id), status: 404 },
    { rule: "removing a Space share that does not exist is 404", run: () => removeSpace(shared, G), status: 404 },
    { rule: "a user share goes to a current member of the collection's Space: a stranger is refused, named", run: () => shareUsers(shared, "owner", { userIds: [u.betaUser.id] }), status: 400, check: (b) => { expect(b.error).toContain(u.betaUser.id); expect(b.details[0].field).toBe("userIds.0"); } },
    { rule: "a user share goes only to an enabled member: a disabled one is refused, named", run: async () => { await db().user.update({ where: { id: u.disabled.id }, data: { disabledAt: new Date() } }); return shareUsers(shared, "owner", { users: [{ userId: u.member.id, role: "viewer" }, { userId: u.disabled.id, role: "viewer" }] }); }, status: 400, check: async (b) => { expect(b.error).toContain(u.disabled.id); expect(await db().testerCollectionUserGrant.count({ where: { collectionId: shared } })).toBe(0); } },
    { rule: "an unknown user id is refused like a non-member", run: () => shareUsers(shared, "owner", { users: [{ userId: NOBODY, role: "viewer" }] }), status: 400 },
    { rule: "a member is shared with (users [{userId, role}] form); it adds no membership", run: async () => { const before = await db().membership.findMany({ where: { userId: u.member.id } }); const r = await shareUsers(shared, "owner", { users: [{ userId: u.member.id, role: "editor" }] }); expect(await db().membership.findMany({ where: { userId: u.member.id } })).toEqual(before); return r; }, status: 200, check: (b) => { expect(b.users).toMatchObject([{ id: u.member.id, userId: u.member.id, role: "editor", fullName: "Mia Member", email: "mia@example.test", grantedBy: u.owner.username }]); } },
    { rule: "sharing with a member does not give a foreign user a way in (no seat in the Space)", run: () => getIn(shared, A, "betaUser"), status: 404 },
    { rule: "the userIds + role form is accepted too", run: () => shareUsers(shared, "owner", { userIds: [u.revoked.id], role: "viewer" }), status: 200, check: (b) => expect(b.users.map((x: any) => [x.id, x.role])).toEqual([[u.member.id, "editor"], [u.revoked.id, "viewer"]]) },
    { rule: "the role of an existing share changes", run: () => setRole(shared, u.member.id, "owner", "viewer"), status: 200, check: (b) => expect(b).toMatchObject({ id: u.member.id, role: "viewer" }) },
    { rule: "the target Space must be accessible to the granter (one they cannot read is 404)", run: () => shareSpaces(shared, "owner", { namespaces: [G] }), status: 404, check: (b) => expect(b.error).toContain(G) },
    { rule: "a Space that does not exist is 404 as well", run: () => shareSpaces(shared, "owner", { namespaces: ["no-such-space"] }), status: 404 },
    { rule: "a collection cannot be shared into its own Space", run: () => shareSpaces(shared, "owner", { namespaces: [A] }), status: 400 },
    { rule: "a viewer cannot grant edit rights to a user", run: () => shareUsers(shared, "viewer", { userIds: [u.later.id], role: "editor" }), status: 403 },
    { rule: "a viewer cannot grant edit rights to a Space", run: () => shareSpaces(shared, "viewer", { namespaces: [{ namespace: B, role: "editor" }] }), status: 403 },
    { rule: "a viewer cannot raise a share to editor", run: () => setRole(shared, u.revoked.id, "viewer", "editor"), status: 403 },
    { rule: "a viewer may share view rights", run: () => shareUsers(shared, "viewer", { userIds: [u.later.id] }), status: 200, check: (b) => expect(b.users.find((x: any) => x.id === u.later.id)).toMatchObject({ role: "viewer", grantedBy: u.viewer.username }) },
    { rule: "a user-share editor may change the collection although only a Space viewer", run: async () => { await setRole(shared, u.later.id, "owner", "editor"); return call(oneRoute.PUT, `${base}/${shared}?namespace=${A}`, { method: "PUT", cookie: cookie.later, body: { description: "edited by a share editor" }, params: { id: shared } }); }, status: 200, check: (b) => expect(b.description).toBe("edited by a share editor") },
    { rule: "a Space viewer without an editor share may not change it", run: () => call(oneRoute.PUT, `${base}/${shared}?namespace=${A}`, { method: "PUT", cookie: cookie.viewer, body: { description: "no" }, params: { id: shared } }), status: 403 },
    { rule: "a revoked membership invalidates the grant at once (not listed)", run: async () => { await db().membership.deleteMany({ where: { userId: u.revoked.id, namespace: { name: A } } }); return listUsers(shared); }, status: 200, check: (b) => expect(b.users.map((x: any) => x.id)).not.toContain(u.revoked.id) },
    { rule: "the invalidated grant cannot be changed (404, like one that never existed)", run: () => setRole(shared, u.revoked.id, "owner", "editor"), status: 404 },
    { rule: "a membership given again later does not bring the old grant back", run: async () => { const ns = await db().namespace.findUniqueOrThrow({ where: { name: A } }); await db().membership.create({ data: { namespaceId: ns.id, userId: u.revoked.id, role: "viewer" } }); return listUsers(shared); }, status: 200, check: (b) => expect(b.users.map((x: any) => x.id)).not.toContain(u.revoked.id) },
    { rule: "a disabled user's grant stops counting at once", run: async () => { await db().user.update({ where: { id: u.later.id }, data: { disabledAt: new Date() } }); const r = await listUsers(shared); await db().user.update({ where: { id: u.later.id }, data: { disabledAt: null } }); return r; }, status: 200, check: (b) => expect(b.users.map((x: any) => x.id)).not.toContain(u.later.id) },
    { rule: "a granter's revoked membership invalidates the grants they gave (Space share no longer seen)", run: async () => {
      const c = await newCollection("Editor's");
      expect((await shareSpaces(c, "editor", { namespaces: [B] })).status).toBe(200);
      expect((await getIn(c, B, "betaUser")).status).toBe(200);
      await db().membership.deleteMany({ where: { userId: u.editor.id, namespace: { name: A } } });
      const list = await listIn(B, "betaUser");
      expect(list.body.collections.map((x: any) => x.id)).not.toContain(c);
      return getIn(c, B, "betaUser");
    }, status: 404 },
    { rule: "a user share is removed", run: () => removeUser(shared, u.member.id), status: 200, check: async () => expect(names(await listUsers(shared))).not.toContain(u.member.id) },
    { rule: "sharing is managed in the collection's own Space: from a Space it is shared into it is 403", run: () => listUsers(shared, "betaUser", B), status: 403 },
    { rule: "a credential without write permission cannot change sharing", run: async () => { const token = await makeToken(u.owner, { permissions: ["read"] }); return call(shareUsersRoute.POST, `${base}/${shared}/sharing/users?namespace=${A}`, { method: "POST", token, body: { userIds: [u.member.id] }, params: { id: shared } }); }, status: 403 },
    { rule: "Space shares are listed with who gave them", run: () => listSpaces(shared), status: 200, check: (b) => expect(b.spaces).toMatchObject([{ namespace: B, role: "viewer", grantedBy: u.owner.username }]) },
  ];
  for (const row of rows) {
    it(row.rule, async () => {
      const r = await row.run();
      expect(r.status, JSON.stringify(r.body)).toBe(row.status);
      await row.check?.(r.body);
    });
  }
});

describe("cross-Space rules", () => {
  const inB = (route: { POST: any }, path: string, body: unknown, params: Record<string, string> = {}) => post(route, path, "betaUser", body, params, B);
  const rows: Row[] = [
    { rule: "a collection shared into a Space is listed there, marked sharedFrom", run: () => listIn(B, "betaUser"), status: 200, check: (b) => expect(b.collections.find((c: any) => c.id === shared)).toMatchObject({ namespace: A, sharedFrom: { namespace: A } }) },
    { rule: "one in its owner's trash is not listed and not reachable from the other Space", run: () => getIn(trashed, B, "betaUser"), status: 404, check: async () => expect((await listIn(B, "betaUser")).body.collections.map((c: any) => c.id)).not.toContain(trashed) },
    { rule: "it can be viewed (get, with its tree; secrets masked)", run: () => getIn(shared, B, "betaUser"), status: 200, check: (b) => { expect(b.sharedFrom).toEqual({ namespace: A }); expect(b.requests.map((r: any) => r.id)).toEqual([sharedRequest]); expect(b.variables.find((v: any) => v.key === "token").value).toBe(SECRET_MASK); } },
    { rule: "its saved requests can be read", run: () => get(requestRoute, `/api/v1/api-tester/requests/${sharedRequest}`, "betaUser", { id: sharedRequest }, B), status: 200, check: (b) => expect(b.url).toBe("{{host}}/ping") },
    { rule: "its request list can be read", run: () => get(requestsRoute, `${base}/${shared}/requests`, "betaUser", { id: shared }, B), status: 200 },
    { rule: "it can be exported", run: () => get(exportRoute, `${base}/${shared}/export`, "betaUser", { id: shared }, B), status: 200, check: (b) => expect(b.collection.scripts.preRequest).toContain("{{host}}") },
    { rule: "it can be copied into the recipient Space, scripts and templates preserved, secrets left behind", run: () => inB(duplicateRoute, `${base}/${shared}/duplicate`, {}, { id: shared }), status: 201, check: async (b) => {
      expect(b.namespace).toBe(B);
      expect(b.sharedFrom).toBeUndefined();
      expect(b.scripts).toEqual({ preRequest: "pm.variables.set('x', '{{host}}')", test: "pm.test('ok', () => {})" });
      const copy = await db().testerCollection.findUniqueOrThrow({ where: { id: b.id } });
      const vars = openVariables(storedVariables(copy.variables));
      expect(vars.find((v) => v.key === "host")!.value).toBe("http://127.0.0.1:9");
      expect(vars.find((v) => v.key === "token")).toMatchObject({ secret: true, value: "" });
      const req = await db().testerRequest.findFirstOrThrow({ where: { collectionId: b.id } });
      expect(req.url).toBe("{{host}}/ping");
    } },
    { rule: "sending its saved request is 403", run: () => inB(executeRoute, "/api/v1/api-tester/requests/execute", { requestId: sharedRequest }), status: 403, check: (b) => expect(b.error).toContain(A) },
    { rule: "sending an inline request in its context (collectionId) is 403", run: () => inB(executeRoute, "/api/v1/api-tester/requests/execute", { request: { method: "GET", url: "http://127.0.0.1:9/" }, collectionId: shared }), status: 403 },
    { rule: "running its scripts with the request is 403", run: () => inB(withScriptsRoute, "/api/v1/api-tester/requests/execute-with-scripts", { requestId: sharedRequest }), status: 403 },
    { rule: "the browser split's pre-request stage is 403", run: () => inB(clientRoute, "/api/v1/api-tester/requests/execute-client", { requestId: sharedRequest, executionMode: "client", stage: "preRequest" }), status: 403 },
    { rule: "running a script in its request's context is 403", run: () => inB(scriptRoute, "/api/v1/api-tester/scripts/execute", { scriptType: "preRequest", script: "1", requestId: sharedRequest }), status: 403 },
    { rule: "Preflight (authorizeOnly) for a cross-Space shared request is 403", run: () => inB(scriptRoute, "/api/v1/api-tester/scripts/execute", { scriptType: "preRequest", requestId: sharedRequest, authorizeOnly: true }), status: 403 },
    { rule: "Preflight in the collection's own Space is {success: true}", run: () => post(scriptRoute, "/api/v1/api-tester/scripts/execute", "owner", { scriptType: "preRequest", requestId: sharedRequest, authorizeOnly: true }), status: 200, check: (b) => expect(b).toEqual({ success: true }) },
    { rule: "Preflight for a request the caller cannot reach is 404", run: () => post(scriptRoute, "/api/v1/api-tester/scripts/execute", "stranger", { scriptType: "preRequest", requestId: sharedRequest, authorizeOnly: true }, {}, G), status: 404 },
    { rule: "the Preflight ran nothing and left no history", run: () => get(historyRoute, "/api/v1/api-tester/requests/history", "betaUser", {}, B), status: 200, check: async (b) => { expect(b.entries ?? b.history ?? []).toEqual([]); expect(await db().testerHistory.count()).toBe(0); } },
    { rule: "starting a functional run of it is 403", run: () => inB(executeCollectionRoute, `${base}/${shared}/execute`, {}, { id: shared }), status: 403, check: async () => expect(await db().testRun.count()).toBe(0) },
    { rule: "running it among several collections is 403, and no run is created", run: () => inB(executeMultipleRoute, `${base}/execute-multiple`, { collectionIds: [shared] }), status: 403, check: async () => expect(await db().testRun.count()).toBe(0) },
    { rule: "scheduling it is 403, and no schedule is created", run: () => inB(schedulesRoute, "/api/v1/api-tester/schedules", { name: "nightly", cron: "0 3 * * *", collectionIds: [shared] }), status: 403, check: async () => expect(await db().testerSchedule.count()).toBe(0) },
    { rule: "generating mocks from it is 403, and no mock is created", run: () => inB(mocksFromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: shared }), status: 403, check: async () => expect(await db().mock.count()).toBe(0) },
    { rule: "generating mocks from a collection the caller cannot reach is 404", run: () => post(mocksFromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", "stranger", { collectionId: shared }, {}, G), status: 404 },
    { rule: "changing it from the recipient Space is not possible (its writes are the owner Space's)", run: () => call(oneRoute.PUT, `${base}/${shared}?namespace=${B}`, { method: "PUT", cookie: cookie.betaUser, body: { name: "mine" }, params: { id: shared } }), status: 404 },
    { rule: "a Space it is not shared into cannot see it (404)", run: () => getIn(shared, G, "stranger"), status: 404 },
    { rule: "after the Space share is removed it is gone from the recipient Space", run: async () => { const c = await newCollection("Briefly shared"); await shareSpaces(c, "owner", { namespaces: [B] }); expect((await getIn(c, B, "betaUser")).status).toBe(200); expect((await removeSpace(c, B)).status).toBe(200); return getIn(c, B, "betaUser"); }, status: 404 },
  ];
  for (const row of rows) {
    it(row.rule, async () => {
      const r = await row.run();
      expect(r.status, JSON.stringify(r.body)).toBe(row.status);
      await row.check?.(r.body);
    });
  }

  it("assertCollectionUsable: view and copy pass, execute/schedule/generate-mocks are 403 for a cross-Space share, anything unreachable 404", async () => {
    const actor = actorFor(u.betaUser);
    const scope = await resolveNamespace(actor, B);
    for (const purpose of ["view", "copy"] as const) expect((await assertCollectionUsable(actor, scope, shared, purpose)).crossSpace).toBe(true);
    for (const purpose of ["execute", "schedule", "generate-mocks"] as const) {
      await expect(assertCollectionUsable(actor, scope, shared, purpose)).rejects.toMatchObject({ code: "forbidden" });
    }
    const stranger = actorFor(u.stranger);
    const g = await resolveNamespace(stranger, G);
    for (const id of [shared, NOBODY, "not-a-uuid"]) {
      const err = await assertCollectionUsable(stranger, g, id, "generate-mocks").catch((e) => e);
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe("not_found");
    }
  });

  it("resolveCollectionAccess names how the caller reaches it", async () => {
    const owner = actorFor(u.owner);
    expect(await resolveCollectionAccess(owner, await resolveNamespace(owner, A), shared)).toMatchObject({ access: "owner-space", role: "owner", crossSpace: false });
    const beta = actorFor(u.betaUser);
    expect(await resolveCollectionAccess(beta, await resolveNamespace(beta, B), shared)).toMatchObject({ access: "shared-space", role: "viewer", crossSpace: true, ownerScope: { name: A } });
    await shareUsers(shared, "owner", { users: [{ userId: u.member.id, role: "editor" }] });
    const member = actorFor(u.member);
    expect(await resolveCollectionAccess(member, await resolveNamespace(member, A), shared)).toMatchObject({ access: "shared-user", role: "editor", crossSpace: false });
  });

  it("deleting a collection for good removes its grants", async () => {
    const c = await newCollection("Doomed");
    await shareSpaces(c, "owner", { namespaces: [B] });
    await shareUsers(c, "owner", { userIds: [u.member.id] });
    await call(oneRoute.DELETE, `${base}/${c}?namespace=${A}`, { method: "DELETE", cookie: cookie.owner, params: { id: c } });
    expect((await call(oneRoute.DELETE, `${base}/${c}?namespace=${A}&permanent=true`, { method: "DELETE", cookie: cookie.owner, params: { id: c } })).status).toBe(200);
    expect(await db().testerCollectionSpaceGrant.count({ where: { collectionId: c } })).toBe(0);
    expect(await db().testerCollectionUserGrant.count({ where: { collectionId: c } })).toBe(0);
  });
});

describe("people lookup", () => {
  const P = "people";
  const ids: string[] = [];
  let searcher: string;
  let foreign: User;
  let gone: User;
  let off: User;

  beforeAll(async () => {
    const s = await makeUser({ namespaces: { [P]: "viewer" }, username: "searcher" });
    searcher = await sessionCookie(s.user.id);
    ids.push(s.user.id);
    for (let i = 0; i < 104; i++) {
      const { user } = await makeUser({ namespaces: { [P]: "viewer" }, username: `pal-${String(i).padStart(3, "0")}`, email: i === 0 ? "first.pal@example.test" : undefined });
      ids.push(user.id);
    }
    foreign = (await makeUser({ namespaces: { [G]: "viewer" }, username: "pal-foreign" })).user;
    off = (await makeUser({ namespaces: { [P]: "viewer" }, username: "pal-disabled" })).user;
    await db().user.update({ where: { id: off.id }, data: { disabledAt: new Date() } });
    gone = (await makeUser({ namespaces: { [P]: "viewer" }, username: "pal-deleted" })).user;
    await db().user.delete({ where: { id: gone.id } });
  });

  const search = (query: string, opts: { headers?: Record<string, string>; token?: string } = {}) => call(searchRoute.GET, `/api/v1/api-tester/users/search${query}`, { cookie: opts.token ? undefined : searcher, ...opts });
  const lookup = (userIds: unknown, query = `?namespace=${P}`, opts: { token?: string } = {}) => call(lookupRoute.POST, `/api/v1/users/lookup${query}`, { method: "POST", cookie: opts.token ? undefined : searcher, token: opts.token, body: { userIds } });

  it("search without a Space is 400 (no sandbox fallback)", async () => {
    const r = await search("?q=pal");
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/Space/);
  });
  it("search defaults to 20 people, matches any case, leaves out foreign and disabled users", async () => {
    const r = await search(`?namespace=${P}&q=PAL`);
    expect(r.status).toBe(200);
    expect(r.body.users).toHaveLength(20);
    expect(r.body.users[0]).toMatchObject({ username: "pal-000", email: "first.pal@example.test" });
    expect(r.body.users[1].email).toBeUndefined();
    const all = await search(`?namespace=${P}&q=pal&limit=100`);
    expect(all.body.users.map((x: any) => x.username)).not.toContain("pal-foreign");
    expect(all.body.users.map((x: any) => x.username)).not.toContain("pal-disabled");
  });
  it("search takes at most 100", async () => {
    expect((await search(`?namespace=${P}&q=pal&limit=100`)).body.users).toHaveLength(100);
    expect((await search(`?namespace=${P}&limit=101`)).status).toBe(400);
  });
  it("search takes the Space from the X-Service-Namespace header, or a pinned token", async () => {
    const byHeader = await search("?q=pal-001", { headers: { "X-Service-Namespace": P } });
    expect(byHeader.body.users.map((x: any) => x.username)).toEqual(["pal-001"]);
    const s = await db().user.findUniqueOrThrow({ where: { username: "searcher" } });
    const token = await makeToken(s, { namespace: P, permissions: ["read"] });
    const byToken = await search("?q=pal-002", { token });
    expect(byToken.status, JSON.stringify(byToken.body)).toBe(200);
    expect(byToken.body.users.map((x: any) => x.username)).toEqual(["pal-002"]);
  });
  it("search in a Space the caller cannot read is 404 before anyone is read", async () => {
    expect((await search(`?namespace=${G}&q=pal`)).status).toBe(404);
  });
  it("lookup returns members by id and omits unknown, foreign, disabled and deleted ids", async () => {
    const r = await lookup([ids[1], NOBODY, foreign.id, off.id, gone.id, "not-an-id", ids[2]]);
    expect(r.status).toBe(200);
    expect(r.body.users.map((x: any) => x.id)).toEqual([ids[1], ids[2]]);
    expect(r.body.users[0]).toMatchObject({ username: "pal-000", fullName: "", email: "first.pal@example.test" });
  });
  it("lookup takes at most 200 ids", async () => {
    const two = [...ids, ...ids].slice(0, 200);
    expect(two.length).toBe(200);
    const r = await lookup(two);
    expect(r.status).toBe(200);
    expect(r.body.users).toHaveLength(ids.length);
    expect((await lookup([...two, ids[0]])).status).toBe(400);
  });
  it("lookup without a Space is 400; in an unreadable Space 404", async () => {
    expect((await lookup([ids[1]], "")).status).toBe(400);
    expect((await lookup([ids[1]], `?namespace=${G}`)).status).toBe(404);
  });
});
