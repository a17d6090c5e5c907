// API tester environments over REST: variables as clients send them, secret
// values sealed at rest and masked in views, a PUT with the mask keeps the
// secret, the active environment per user and namespace, the executor's
// loader with real values, and who may do what.
import { beforeAll, describe, expect, it } from "vitest";
import * as listRoute from "@/app/api/v1/api-tester/environments/route";
import * as oneRoute from "@/app/api/v1/api-tester/environments/[id]/route";
import * as activeRoute from "@/app/api/v1/api-tester/environments/active/route";
import * as activateRoute from "@/app/api/v1/api-tester/environments/[id]/activate/route";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { db } from "@/server/db/client";
import { decryptSecret } from "@/server/lib/crypto";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "../namespace-access";
import { loadActiveEnvironmentForRun, loadEnvironmentForRun } from "./environments";

useTestDatabase();

const NS = "envs";
let owner: string;
let editor: string;
let viewer: string;
let outsider: string;
let ownerActor: ReturnType<typeof actorFor>;

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const e = await makeUser();
  const v = await makeUser();
  const x = await makeUser({ namespaces: { theirs: "owner" } });
  await makeNamespace(NS, { [e.user.id]: "editor", [v.user.id]: "viewer" });
  ownerActor = actorFor(o.user);
  owner = await sessionCookie(o.user.id);
  editor = await sessionCookie(e.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
});

const base = "/api/v1/api-tester/environments";
const create = (body: unknown, { cookie = owner, ns = NS } = {}) => call(listRoute.POST, `${base}?namespace=${ns}`, { method: "POST", body, cookie });
const list = (cookie = owner) => call(listRoute.GET, `${base}?namespace=${NS}`, { cookie });
const get = (id: string, cookie = owner) => call(oneRoute.GET, `${base}/${id}?namespace=${NS}`, { cookie, params: { id } });
const put = (id: string, body: unknown, cookie = owner) => call(oneRoute.PUT, `${base}/${id}?namespace=${NS}`, { method: "PUT", body, cookie, params: { id } });
const remove = (id: string, cookie = owner) => call(oneRoute.DELETE, `${base}/${id}?namespace=${NS}`, { method: "DELETE", cookie, params: { id } });
const active = (cookie = owner) => call(activeRoute.GET, `${base}/active?namespace=${NS}`, { cookie });
const deactivate = (cookie = owner) => call(activeRoute.DELETE, `${base}/active?namespace=${NS}`, { method: "DELETE", cookie });
const activate = (id: string, cookie = owner) => call(activateRoute.POST, `${base}/${id}/activate?namespace=${NS}`, { method: "POST", cookie, params: { id } });
const raw = async (id: string) => db().testerEnvironment.findUniqueOrThrow({ where: { id } });
const scope = () => resolveNamespace(ownerActor, NS);

describe("environments", () => {
  it("create takes {name: value} and the secret names; numbers and booleans become text; secrets are sealed at rest and masked in views", async () => {
    const res = await create({ name: "Staging", variables: { baseUrl: "https://staging.example.test", retries: 3, verbose: true, token: "tok-abcdef" }, secrets: ["token"] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      namespace: NS,
      name: "Staging",
      variables: { baseUrl: "https://staging.example.test", retries: "3", verbose: "true", token: SECRET_MASK },
      secrets: ["token"],
      isActive: false,
    });
    const row = await raw(res.body.id);
    const stored = row.variables as Record<string, string>;
    expect(JSON.stringify(stored)).not.toContain("tok-abcdef");
    expect(decryptSecret(stored.token)).toBe("tok-abcdef");
    expect(stored.baseUrl).toBe("https://staging.example.test");
    expect((await get(res.body.id)).body.variables.token).toBe(SECRET_MASK);
    expect((await list()).body.environments.find((e: { id: string }) => e.id === res.body.id).variables.token).toBe(SECRET_MASK);
    // The executor's loader is the only way to the real value.
    expect(await loadEnvironmentForRun(await scope(), res.body.id)).toEqual({
      id: res.body.id,
      name: "Staging",
      values: { baseUrl: "https://staging.example.test", retries: "3", verbose: "true", token: "tok-abcdef" },
      secrets: ["token"],
    });
  });

  it("PUT with the mask keeps the secret; a new value replaces it; secrets alone re-seal the stored values", async () => {
    const { body: env } = await create({ name: "Prod", variables: { password: "hunter2!", user: "admin" }, secrets: ["password"] });
    // The view sent back as it is: nothing changes.
    const roundTrip = await put(env.id, { name: env.name, variables: env.variables, secrets: env.secrets });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect((await loadEnvironmentForRun(await scope(), env.id)).values).toEqual({ password: "hunter2!", user: "admin" });

    const changed = await put(env.id, { variables: { ...env.variables, password: "n3w-pass", extra: "x" } });
    expect(changed.body.variables).toEqual({ password: SECRET_MASK, user: "admin", extra: "x" });
    expect((await loadEnvironmentForRun(await scope(), env.id)).values.password).toBe("n3w-pass");

    // Making `user` secret too seals its stored value; un-marking `password` stores it plainly.
    const resealed = await put(env.id, { secrets: ["user"] });
    expect(resealed.body).toMatchObject({ variables: { password: "n3w-pass", user: SECRET_MASK, extra: "x" }, secrets: ["user"] });
    const stored = (await raw(env.id)).variables as Record<string, string>;
    expect(stored.password).toBe("n3w-pass");
    expect(decryptSecret(stored.user)).toBe("admin");

    const unknown = await put(env.id, { secrets: ["nope"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([{ location: "body", field: "secrets.0", message: "'nope' is not one of the variables" }]);
    const unknownInBody = await put(env.id, { variables: { a: "1" }, secrets: ["b"] });
    expect(unknownInBody.body.details[0].field).toBe("secrets.0");
    expect((await put(env.id, { name: "" })).body.details[0].field).toBe("name");
    expect((await put(env.id, { variables: { a: { nested: true } } })).body.details[0].field).toBe("variables.a");
    expect((await put(env.id, { variables: [] })).status).toBe(400);
    expect((await create({ variables: {} })).body.details[0].field).toBe("name");
  });

  it("each user has one active environment per namespace; deleting it clears the choice; a viewer may choose theirs", async () => {
    const a = (await create({ name: "A" })).body.id;
    const b = (await create({ name: "B", variables: { s: "secret-b" }, secrets: ["s"] })).body.id;
    expect((await active()).body).toEqual({ environment: null });
    expect(await loadActiveEnvironmentForRun(ownerActor, await scope())).toBeNull();

    const on = await activate(a);
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ id: a, isActive: true });
    expect((await active()).body.environment).toMatchObject({ id: a, isActive: true });
    expect((await activate(b)).body.isActive).toBe(true);
    expect((await get(a)).body.isActive).toBe(false);
    expect((await list()).body.environments.filter((e: { isActive: boolean }) => e.isActive).map((e: { id: string }) => e.id)).toEqual([b]);
    expect((await loadActiveEnvironmentForRun(ownerActor, await scope()))?.values).toEqual({ s: "secret-b" });

    // Another user's choice is their own.
    expect((await active(editor)).body.environment).toBeNull();
    expect((await activate(a, viewer)).status).toBe(200);
    expect((await active(viewer)).body.environment.id).toBe(a);
    expect((await active()).body.environment.id).toBe(b);

    expect((await remove(b)).body).toEqual({ ok: true });
    expect((await active()).body.environment).toBeNull();
    await activate(a);
    expect((await deactivate()).body).toEqual({ environment: null });
    expect((await active()).body.environment).toBeNull();
    expect((await active(viewer)).body.environment.id).toBe(a);
  });

  it("lists by name; another namespace's environments are 404; a viewer cannot write", async () => {
    await create({ name: "zeta" });
    await create({ name: "Alpha" });
    const names = (await list()).body.environments.map((e: { name: string }) => e.name);
    expect(names.indexOf("Alpha")).toBeLessThan(names.indexOf("zeta"));
    expect((await list()).body.count).toBe(names.length);

    const theirs = (await create({ name: "Theirs", variables: { k: "v" }, secrets: ["k"] }, { cookie: outsider, ns: "theirs" })).body.id;
    expect((await get(theirs)).status).toBe(404);
    expect((await put(theirs, { name: "x" })).status).toBe(404);
    expect((await remove(theirs)).status).toBe(404);
    expect((await activate(theirs)).status).toBe(404);
    await expect(loadEnvironmentForRun(await scope(), theirs)).rejects.toMatchObject({ status: 404 });
    expect((await list(outsider)).status).toBe(404);

    const mine = (await create({ name: "Mine" })).body.id;
    expect((await get(mine, viewer)).status).toBe(200);
    expect((await create({ name: "x" }, { cookie: viewer })).status).toBe(403);
    expect((await put(mine, { name: "x" }, viewer)).status).toBe(403);
    expect((await remove(mine, viewer)).status).toBe(403);
    expect((await put(mine, { name: "by editor" }, editor)).status).toBe(200);
  });
});
