// The request editor's protocol helpers in the browser, against our own MCP
// mock: the MCP panel connects to the namespace's MCP stub, lists its tool,
// builds a form from the tool's input schema (a string and an enum), calls it
// and shows the result — with no console errors.
import { expect, test } from "@playwright/test";
import { createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "helpers");
  await createMock(api, ws.namespace, {
    pathPrefix: "/desk",
    mcp: {
      method: "tools/call",
      tool: "open_ticket",
      description: "Open a support ticket",
      inputSchema: { type: "object", properties: { title: { type: "string", description: "Short title" }, priority: { type: "string", enum: ["low", "high"] } }, required: ["title", "priority"] },
    },
    response: { payload: { opened: "ticket-42" } },
  });
  await api.dispose();
});

test("the MCP panel lists a server's tools, builds a form from the input schema and calls the tool", async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await loginViaUi(page, ws.owner);
  await page.goto(`/tester?ns=${ws.namespace}`);

  await page.getByRole("button", { name: "New collection" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New collection" });
  await dialog.getByLabel("Name").fill("Desk");
  await dialog.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("tree", { name: "Collections" }).getByText("Desk")).toBeVisible();
  await page.getByRole("button", { name: "Actions for Desk" }).click();
  await page.getByRole("menuitem", { name: "New request" }).click();
  await expect(page.getByRole("tab", { name: /New request/ })).toHaveCount(1);

  await page.getByRole("tab", { name: "Helpers" }).click();
  await page.getByRole("tab", { name: "MCP tools" }).click();
  const panel = page.getByTestId("mcp-panel");
  await panel.getByLabel("MCP server URL").fill(`${process.env.E2E_BASE_URL}/stubs/${ws.namespace}/desk`);
  await panel.getByRole("button", { name: "Connect" }).click();
  await expect(panel.getByTestId("mcp-server")).toContainText("tools", { timeout: 30_000 });
  await expect(panel.getByRole("listbox")).toContainText("open_ticket");

  const form = panel.getByRole("form", { name: "Arguments of open_ticket" });
  await expect(form.getByText("Open a support ticket")).toBeVisible();
  await form.getByLabel(/^title/).fill("Printer on fire");
  await form.getByLabel(/^priority/).selectOption("high");
  await screenshot(page, "tester-helpers-mcp");
  await form.getByRole("button", { name: "Call open_ticket" }).click();
  const result = panel.getByTestId("mcp-result");
  await expect(result).toContainText("ticket-42", { timeout: 30_000 });
  await expect(result).not.toContainText("reported an error");

  expect(errors).toEqual([]);
});
