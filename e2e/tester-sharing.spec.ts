// Sharing a collection from the tester workspace: the owner finds a colleague
// of the same Space by name (debounced search, picked with the keyboard),
// gives them edit rights, shares the collection into a second Space, then
// removes the colleague again. The API confirms what the dialog shows.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { screenshot } from "./support/session";
import { choose } from "./support/mocks";
import { adminApi, createUser, loginViaUi, type TestUser, uniq } from "./support/ui";

let api: APIRequestContext;
let home: string;
let other: string;
let owner: TestUser;
let colleague: TestUser;
let collectionId: string;
const NAME = "Shared orders";

test.beforeAll(async () => {
  api = await adminApi();
  home = uniq("share-home");
  other = uniq("share-other");
  for (const name of [home, other]) expect((await api.post("/api/v1/namespaces", { data: { name } })).status()).toBe(201);
  owner = await createUser(api, { prefix: "share-owner", namespaces: [{ name: home, role: "owner" }, { name: other, role: "editor" }] });
  colleague = await createUser(api, { prefix: "share-colleague", namespaces: [{ name: home, role: "viewer" }] });
  const res = await api.post(`/api/v1/api-tester/collections?namespace=${home}`, { data: { name: NAME } });
  expect(res.status(), await res.text()).toBe(201);
  collectionId = (await res.json()).id;
});
test.afterAll(async () => api.dispose());

test("share a collection with a colleague and a Space, then remove the colleague", async ({ page }) => {
  test.setTimeout(120_000);
  await loginViaUi(page, owner);
  await page.goto(`/tester?ns=${home}`);
  await page.getByRole("button", { name: `Actions for ${NAME}` }).click();
  await page.getByRole("menuitem", { name: "Share…" }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${NAME}”` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Nobody yet.")).toBeVisible();

  // People: type part of the name, wait for the suggestion, pick it with the keyboard.
  const search = dialog.getByRole("combobox", { name: "Find people" });
  await search.fill(colleague.username.slice(0, 20));
  await expect(dialog.getByRole("option", { name: new RegExp(colleague.username) })).toBeVisible({ timeout: 15_000 });
  await search.press("Enter");
  await expect(search).toHaveValue(new RegExp(colleague.username));
  await choose(page, "Role for the new share", "Can edit");
  await dialog.getByRole("button", { name: "Share", exact: true }).click();
  const current = dialog.getByRole("list", { name: "Current shares" });
  await expect(current.getByText(new RegExp(colleague.username)).first()).toBeVisible();
  await expect(current.getByRole("combobox", { name: `Role of ${colleague.username}` })).toContainText("Can edit");

  // A Space the owner can read.
  await choose(page, "Space to share into", other);
  await dialog.getByRole("button", { name: "Share with Space" }).click();
  await expect(current.getByText(`Space ${other}`)).toBeVisible();
  await screenshot(page, "tester-share-dialog");

  // Remove the colleague; the Space share stays.
  await current.getByRole("button", { name: `Remove ${colleague.username}` }).click();
  await expect(current.getByText(new RegExp(colleague.username))).toHaveCount(0);
  await expect(current.getByText(`Space ${other}`)).toBeVisible();

  const users = await (await api.get(`/api/v1/api-tester/collections/${collectionId}/users?namespace=${home}`)).json();
  expect(users.users).toEqual([]);
  const spaces = await (await api.get(`/api/v1/api-tester/collections/${collectionId}/spaces?namespace=${home}`)).json();
  expect(spaces.spaces.map((s: { namespace: string }) => s.namespace)).toEqual([other]);

  // In the other Space the collection is listed as shared from home: viewable, not runnable.
  const listed = await (await api.get(`/api/v1/api-tester/collections?namespace=${other}`)).json();
  expect(listed.collections.find((c: { id: string }) => c.id === collectionId)).toMatchObject({ sharedFrom: { namespace: home } });
  const run = await api.post(`/api/v1/api-tester/collections/${collectionId}/execute?namespace=${other}`, { data: {} });
  expect(run.status()).toBe(403);
});
