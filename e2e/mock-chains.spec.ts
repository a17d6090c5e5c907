import { expect, test } from "@playwright/test";
import { createMock, newWorkspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

test("chains: the editor's Chain tab lists the chain's mocks and store; /mocks/chains/<id> deletes the chain after a confirm", async ({ page }) => {
  const api = await adminApi();
  const ws = await newWorkspace(api, "chain");
  const chain = uniq("checkout-flow");
  const first = await createMock(api, ws.namespace, { id: uniq("chain-cart"), chainId: chain, http: { route: "/cart", httpMethod: "POST" } });
  const second = await createMock(api, ws.namespace, { id: uniq("chain-pay"), chainId: chain, http: { route: "/pay", httpMethod: "POST" } });
  const outsider = await createMock(api, ws.namespace, { id: uniq("no-chain"), http: { route: "/other" } });
  const set = await api.post(`/api/v1/stores/chain/${chain}?namespace=${ws.namespace}`, { data: { key: "step", value: 2 } });
  expect(set.status(), await set.text()).toBe(200);
  await api.dispose();
  await loginViaUi(page, ws.owner);

  // A mock without a chain has no Chain tab.
  await page.goto(`/mocks/${outsider}?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: outsider, level: 1 })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Try it" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Chain" })).toHaveCount(0);

  // The editor of a chained mock: its Chain tab lists both mocks, this one marked.
  await page.goto(`/mocks/${first}?ns=${ws.namespace}`);
  await page.getByRole("tab", { name: "Chain" }).click();
  await expect(page).toHaveURL(/tab=chain/);
  const panel = page.getByRole("region", { name: `Chain ${chain}` });
  const rows = panel.getByRole("table", { name: "Chain mocks" }).getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText(first);
  await expect(rows.nth(1)).toContainText("this mock");
  await expect(rows.nth(2)).toContainText(second);
  await expect(rows.nth(2)).toContainText("/pay");
  await screenshot(page, "mock-editor-chain");

  // Each opens its editor.
  await panel.getByRole("link", { name: second }).click();
  await expect(page.getByRole("heading", { name: second, level: 1 })).toBeVisible();

  // The chain store link opens /stores with this chain selected.
  await page.goto(`/mocks/${first}?ns=${ws.namespace}&tab=chain`);
  await page.getByRole("region", { name: `Chain ${chain}` }).getByRole("link", { name: "Chain store" }).click();
  await expect(page).toHaveURL(new RegExp(`/stores\\?.*chain=${chain}`));
  await expect(page.getByRole("table", { name: `Values in chain “${chain}”` })).toContainText("step");

  // …and back to the chain's page, which is bookmarkable.
  await page.getByRole("link", { name: "The chain's mocks" }).click();
  await expect(page).toHaveURL(new RegExp(`/mocks/chains/${chain}\\?ns=${ws.namespace}`));
  await expect(page.getByRole("heading", { name: `Chain ${chain}`, level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Chain mocks" }).getByRole("row")).toHaveCount(3);

  // Delete chain asks first and says what goes; Cancel keeps everything.
  await page.getByRole("button", { name: "Delete chain" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(`Delete chain “${chain}”?`);
  await expect(dialog).toContainText("2 active mocks move to the recycle bin");
  await expect(dialog).toContainText("chain store");
  await screenshot(page, "chain-delete-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: "Chain mocks" }).getByRole("row")).toHaveCount(3);

  await page.getByRole("button", { name: "Delete chain" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete chain" }).click();
  await expect(page.getByText(`Chain “${chain}” deleted: 2 mocks moved to the recycle bin, 1 store key cleared`)).toBeVisible();
  await expect(page.getByText("No active mock carries this chain id")).toBeVisible();

  // The chain's mocks are in the recycle bin; the other mock is untouched.
  await page.goto(`/mocks?ns=${ws.namespace}&view=bin`);
  const table = page.getByRole("table", { name: "Mocks" });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table).toContainText(first);
  await expect(table).toContainText(second);
  await page.getByRole("tab", { name: "Active" }).click();
  await expect(table.getByRole("row")).toHaveCount(2);
  await expect(table).toContainText(outsider);
});
