// The mock editor never loses or replaces data silently: a taken id is asked
// about, unparsable payload JSON blocks saving, leaving with unsaved changes
// (a link, a reload, the Back button) asks first, and the SSE form has one set
// of fields whose events keep the mock's own event name. Outcomes are checked
// through the REST API.
import { type APIRequestContext, expect, test } from "@playwright/test";
import { choose, createMock, fillCode, newWorkspace, patchMock, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;
let api: APIRequestContext;

test.beforeAll(async () => {
  api = await adminApi();
  ws = await newWorkspace(api, "safe");
});

test.afterAll(async () => {
  await api.dispose();
});

async function stored(id: string) {
  const res = await api.get(`/api/v1/mocks/${encodeURIComponent(id)}?namespace=${ws.namespace}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Record<string, any>;
}

test("a new mock with a taken id asks: pick another id, or overwrite on purpose", async ({ page }) => {
  const id = uniq("taken");
  await createMock(api, ws.namespace, { id, http: { route: `/${uniq("orig")}`, httpMethod: "GET" }, response: { statusCode: 200, payload: { original: true } } });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await page.getByLabel("Mock id").fill(id);
  await page.getByLabel("Route", { exact: true }).fill(`/${uniq("other")}`);
  await page.getByRole("button", { name: "Save mock" }).click();
  const dialog = page.getByRole("alertdialog", { name: `The id “${id}” is already taken` });
  await expect(dialog).toBeVisible();
  await screenshot(page, "mock-id-taken");
  // Nothing was written: the existing mock is still version 1 with its payload.
  expect((await stored(id)).version).toBe(1);
  expect((await stored(id)).response.payload).toEqual({ original: true });

  await dialog.getByRole("button", { name: "Pick another id" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByLabel("Mock id")).toBeFocused();
  const fresh = uniq("fresh");
  await page.getByLabel("Mock id").fill(fresh);
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${fresh}” created`)).toBeVisible();
  expect((await stored(id)).version).toBe(1);

  // Overwriting is still possible, but only as an answer to the question.
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await page.getByLabel("Mock id").fill(id);
  await page.getByLabel("Route", { exact: true }).fill("/replaced");
  await fillCode(page, "Response payload", '{"replaced": true}');
  await page.getByRole("button", { name: "Save mock" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Overwrite existing" }).click();
  await expect(page.getByText(`Mock “${id}” saved`)).toBeVisible();
  const after = await stored(id);
  expect(after.version).toBe(2);
  expect(after.response.payload).toEqual({ replaced: true });
});

test("invalid payload JSON in the form blocks saving; nothing is stored", async ({ page }) => {
  const id = uniq("badjson");
  await createMock(api, ws.namespace, { id, http: { route: `/${uniq("bj")}`, httpMethod: "GET" }, response: { statusCode: 200, payload: { good: 1 } } });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/${id}?ns=${ws.namespace}`);
  await fillCode(page, "Response payload", '{"good": 2, "broken": ');
  await expect(page.getByRole("alert").filter({ hasText: "Not valid JSON" })).toBeVisible();
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "The mock is not valid yet" })).toContainText("Response payload is not valid JSON");
  await expect(page.getByText(`Mock “${id}” saved`)).toBeHidden();
  await screenshot(page, "mock-payload-invalid");
  // Leaving the form would drop the unparsable text, so the tab stays.
  await page.getByRole("tab", { name: "JSON" }).click();
  await expect(page.getByRole("tab", { name: "Form" })).toHaveAttribute("aria-selected", "true");
  const still = await stored(id);
  expect(still.version).toBe(1);
  expect(still.response.payload).toEqual({ good: 1 });

  await fillCode(page, "Response payload", '{"good": 3}');
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${id}” saved`)).toBeVisible();
  expect((await stored(id)).response.payload).toEqual({ good: 3 });
});

test("leaving the editor with unsaved changes asks first", async ({ page }) => {
  const id = uniq("unsaved");
  await createMock(api, ws.namespace, { id, http: { route: `/${uniq("u")}`, httpMethod: "GET" }, response: { statusCode: 200, payload: {} } });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/${id}?ns=${ws.namespace}`);
  // Unchanged: the sidebar leaves at once.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Request log" }).click();
  await expect(page).toHaveURL(/\/logs/);

  await page.goBack();
  await expect(page.getByRole("heading", { name: id, level: 1 })).toBeVisible();
  await page.getByLabel("Response status code").fill("418");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Stores" }).click();
  const ask = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(ask).toBeVisible();
  await screenshot(page, "mock-unsaved-leave");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`/mocks/${id}`));
  await expect(page.getByLabel("Response status code")).toHaveValue("418");

  // Reloading asks through the browser's own dialog (beforeunload).
  const prompts: string[] = [];
  page.once("dialog", async (d) => {
    prompts.push(d.type());
    await d.dismiss();
  });
  await page.reload({ timeout: 3000 }).catch(() => {});
  expect(prompts).toEqual(["beforeunload"]);
  await expect(page.getByLabel("Response status code")).toHaveValue("418");

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Stores" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(/\/stores/);
  expect((await stored(id)).response.statusCode).toBe(200);
});

test("Back with unsaved changes asks; Cancel keeps the edit, leaving goes to the page before", async ({ page }) => {
  const id = uniq("back");
  await createMock(api, ws.namespace, { id, http: { route: `/${uniq("b")}`, httpMethod: "GET" }, response: { statusCode: 200, payload: {} } });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  const list = page.getByRole("table", { name: "Mocks" });
  await list.getByRole("link", { name: id }).click();
  await expect(page.getByRole("heading", { name: id, level: 1 })).toBeVisible();
  await page.getByLabel("Response status code").fill("418");

  await page.goBack();
  const ask = page.getByRole("alertdialog", { name: "Leave without saving?" });
  await expect(ask).toBeVisible();
  await screenshot(page, "mock-unsaved-back");
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/mocks/${id}\\?`));
  await expect(page.getByLabel("Response status code")).toHaveValue("418");

  // A tab change rewrites the current entry through the router; Back still asks, and Cancel keeps the tab.
  await page.getByRole("tab", { name: "JSON" }).click();
  await expect(page).toHaveURL(/tab=json/);
  await page.goBack();
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/tab=json/);
  await expect(page.getByRole("tab", { name: "JSON" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tab", { name: "Form" }).click();
  await expect(page.getByLabel("Response status code")).toHaveValue("418");

  await page.goBack();
  await ask.getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(new RegExp(`/mocks\\?ns=${ws.namespace}`));
  await expect(list.getByRole("row").filter({ hasText: id })).toBeVisible();
  expect((await stored(id)).response.statusCode).toBe(200);
});

test("after a save, one Back reaches the page before the editor (no extra history entry is left)", async ({ page }) => {
  const id = uniq("back-saved");
  await createMock(api, ws.namespace, { id, http: { route: `/${uniq("bs")}`, httpMethod: "GET" }, response: { statusCode: 200, payload: {} } });
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks?ns=${ws.namespace}`);
  const list = page.getByRole("table", { name: "Mocks" });
  const ask = page.getByRole("alertdialog", { name: "Leave without saving?" });
  // Saved changes are not unsaved: Back leaves at once, straight to the list.
  await list.getByRole("link", { name: id }).click();
  await page.getByLabel("Response status code").fill("418");
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${id}” saved`)).toBeVisible();
  await expect(page.getByRole("heading", { name: id, level: 1 })).toBeVisible();
  expect((await stored(id)).response.statusCode).toBe(418);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/mocks\\?ns=${ws.namespace}`));
  await expect(ask).toBeHidden();

  // A new mock moves to its own address after saving; one Back still reaches the list.
  const fresh = uniq("back-new");
  await page.getByRole("link", { name: "New mock" }).first().click();
  await page.getByLabel("Mock id").fill(fresh);
  await page.getByLabel("Route", { exact: true }).fill(`/${uniq("bn")}`);
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${fresh}” created`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/mocks/${fresh}\\?`));
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/mocks\\?ns=${ws.namespace}`));
  await expect(ask).toBeHidden();
});

test("the SSE form has one path and one event name; added events keep the mock's event name", async ({ page }) => {
  const id = uniq("sse");
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await page.getByLabel("Mock id").fill(id);
  await choose(page, "Protocol", "SSE");
  const request = page.getByRole("region", { name: "Request" });
  await expect(request.getByLabel("Event path")).toHaveCount(1);
  await expect(request.getByLabel(/route/i)).toHaveCount(0);
  await expect(page.getByLabel(/server name/i)).toHaveCount(1);
  await request.getByLabel("Event path").fill("/events/prices");
  await request.getByLabel("Default event name").fill("price");
  await page.getByRole("button", { name: "Add event" }).click();
  await page.getByRole("button", { name: "Add event" }).click();
  await expect(page.getByLabel("Event 1 name")).toHaveValue("");
  await expect(page.getByLabel("Event 1 name")).toHaveAttribute("placeholder", "price");
  await page.getByLabel("Event 1 data").fill('{"p": 1}');
  await page.getByLabel("Event 2 name")
    .fill("close");
  await screenshot(page, "mock-sse-form");
  await page.getByRole("button", { name: "Save mock" }).click();
  await expect(page.getByText(`Mock “${id}” created`)).toBeVisible();
  const mock = await stored(id);
  expect(mock.sse).toEqual({ eventPath: "/events/prices", eventName: "price" });
  expect(mock.response.sseEventChain.events).toEqual([{ data: { p: 1 } }, { eventName: "close", data: {} }]);

  // The stream names the first event after the mock, not "message".
  const res = await fetch(`${process.env.E2E_BASE_URL}/stubs/${ws.namespace}/events/prices`, { headers: { Accept: "text/event-stream" } });
  const text = await res.text();
  expect(text).toContain('event: price\ndata: {"p":1}');
  expect(text).toContain("event: close");
});

test("operators read as words, versions as sentences, WebSocket by its name", async ({ page }) => {
  const id = uniq("words");
  await createMock(api, ws.namespace, { id, http: { route: `/${uniq("w")}`, httpMethod: "GET", header: [{ path: "X-Trace", assertAction: "notEmpty" }], conditions: [{ path: "$.kind", assertAction: "not_equals", value: "test" }] }, response: { statusCode: 200 } });
  await patchMock(api, ws.namespace, id, { response: { statusCode: 201 } });
  const restored = await api.post(`/api/v1/mocks/${id}/versions/1/restore?namespace=${ws.namespace}`);
  await loginViaUi(page, ws.owner);
  await page.goto(`/mocks/${id}?ns=${ws.namespace}`);
  await expect(page.getByRole("combobox", { name: "Body condition 1 operator" })).toHaveText("does not equal");
  await expect(page.getByRole("combobox", { name: "Header condition 1 operator" })).toHaveText("is not empty");
  await page.getByRole("combobox", { name: "Body condition 1 operator" }).click();
  await expect(page.getByRole("option", { name: /legacy|not_equals/ })).toHaveCount(0);
  await page.keyboard.press("Escape");
  if (restored.ok()) {
    await page.getByRole("tab", { name: "History" }).click();
    const versions = page.getByRole("table", { name: "Versions" });
    await expect(versions).toContainText("Restored version 1");
    await expect(versions).not.toContainText("restored_version");
  }
  await page.getByRole("tab", { name: "Form" }).click();
  await choose(page, "Protocol", "WebSocket");
  await expect(page.getByText("WebSocket clients connect")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Namespace settings" })).toBeVisible();
});
