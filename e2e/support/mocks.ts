// Helpers for the mock console specs: a fresh namespace with an owner, mocks
// made through the REST API (the thing under test is the UI), and typing into
// monaco editors.
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { createUser, type TestUser, uniq } from "./ui";

export interface Workspace {
  namespace: string;
  owner: TestUser;
}

/** A new namespace (made by the admin) whose owner is a new user. */
export async function newWorkspace(api: APIRequestContext, prefix = "ui"): Promise<Workspace> {
  const namespace = uniq(prefix);
  const res = await api.post("/api/v1/namespaces", { data: { name: namespace } });
  expect(res.status(), await res.text()).toBe(201);
  const owner = await createUser(api, { prefix: `${prefix}-owner`, namespaces: [{ name: namespace, role: "owner" }] });
  return { namespace, owner };
}

export async function createMock(api: APIRequestContext, namespace: string, mock: Record<string, unknown>) {
  const res = await api.post(`/api/v1/mocks?namespace=${namespace}`, { data: mock });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).mock.id as string;
}

/** Merges `patch` into a mock (PATCH, a new version); REST decides nothing else about ids. */
export async function patchMock(api: APIRequestContext, namespace: string, id: string, patch: Record<string, unknown>) {
  const res = await api.patch(`/api/v1/mocks/${encodeURIComponent(id)}?namespace=${namespace}`, { data: patch });
  expect(res.status(), await res.text()).toBe(200);
}

/** Replaces the whole text of the monaco editor labelled `label`. */
export async function fillCode(page: Page, label: string, text: string) {
  const box = page.getByTestId(`code-editor-${label}`);
  const lines = box.locator(".view-lines");
  // Monaco loads on first use; on a busy machine that takes a while.
  await expect(lines).toBeVisible({ timeout: 30_000 });
  await lines.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  // insertText types no keys, so monaco's auto-closing brackets and quotes stay out of it.
  await page.keyboard.insertText(text);
}

/** Chooses `option` in the select (combobox) labelled `label`. */
export async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole("combobox", { name: label, exact: typeof label === "string" }).click();
  await page.getByRole("option", { name: option }).click();
}
