// The Import screen in Chromium: a document that cannot be read says where;
// an uploaded OpenAPI 3.1 file previews as a list of new mocks with their
// details; the picked ones are created and served (the default answer and a
// named example chosen with Prefer); importing again shows them unchanged.
// Each other format: its document previews, creates, and the mocks answer.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { choose, createMock, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, alertWith, loginViaUi } from "./support/ui";

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../server/generators/__fixtures__");
const PETSTORE_31 = path.join(FIXTURES, "petstore-3.1.yaml");
const LIBRARY_WSDL = path.join(FIXTURES, "library.wsdl");
let ws: Workspace;
let exportWs: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "import");
  exportWs = await newWorkspace(api, "export");
  await createMock(api, exportWs.namespace, { id: "get-order", http: { route: "/orders/:id", httpMethod: "GET" }, response: { payload: { id: "o-1", state: "open" } } });
  await createMock(api, exportWs.namespace, { id: "orders-created", kafka: { topic: "orders.created", outputTopic: "orders.ack" }, response: { payload: { ok: true } } });
  await api.dispose();
});

test("import an OpenAPI document: preview, pick, create, served; a second import finds them unchanged", async ({ page, playwright }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/import?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "Import", level: 1 })).toBeVisible();

  await page.getByLabel("Document text").fill("openapi: 3.0.3\ninfo: [unclosed\n");
  await expect(page.getByRole("button", { name: "Preview mocks" })).toBeEnabled();
  await page.getByLabel("Document text").press("Control+Enter");
  await expect(alertWith(page, /invalid YAML: .*line 3, column 1/)).toBeVisible();

  await page.getByRole("tab", { name: "Upload a file" }).click();
  await page.getByLabel("Choose a document").setInputFiles(PETSTORE_31);
  await expect(page.getByText(/petstore-3\.1\.yaml \(\d+ KB\)/)).toBeVisible();
  await page.getByLabel("Path prefix").fill("/v1");
  await page.getByRole("button", { name: "Preview mocks" }).click();
  const table = page.getByRole("table", { name: "Mocks from the document" });
  await expect(page.getByRole("status").filter({ hasText: "7 mocks: 7 new, 0 changing an existing mock, 0 unchanged." })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(8);
  await page.getByRole("button", { name: "Details of GET /pets → 200 (example empty)" }).click();
  await expect(page.getByText('"value": "(^|[\\\\s,;])example=empty($|[\\\\s,;])"')).toBeVisible();
  await page.getByRole("checkbox", { name: "Select GET /pets → 500 (from the schema)" }).uncheck();
  await screenshot(page, "import-preview");
  await page.getByRole("button", { name: "Create 6 selected" }).click();
  await expect(page.getByRole("status").filter({ hasText: "6 created, 0 updated, 1 left as they were." })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "GET /pets → 500" })).toContainText("skipped");

  const stub = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  await expect.poll(async () => (await stub.get(`/stubs/${ws.namespace}/v1/pets`)).status(), { timeout: 10_000 }).toBe(200);
  expect(await (await stub.get(`/stubs/${ws.namespace}/v1/pets`)).json()).toEqual([
    { id: 1, name: "Rex", tag: "dog" },
    { id: 2, name: "Tom", tag: null },
  ]);
  expect(await (await stub.get(`/stubs/${ws.namespace}/v1/pets`, { headers: { Prefer: "example=empty" } })).json()).toEqual([]);
  await stub.dispose();

  await page.getByRole("button", { name: "Preview mocks" }).click();
  await expect(page.getByRole("status").filter({ hasText: "7 mocks: 1 new, 0 changing an existing mock, 6 unchanged." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create 1 selected" })).toBeVisible();
});

test("import a GraphQL schema: pasted SDL previews a mock per root field; the created mocks answer a query", async ({ page, playwright }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/import?ns=${ws.namespace}`);
  await choose(page, "Format", /^GraphQL schema/);
  await page.getByLabel("Document text").fill("type Query {\n  hello(name: String): String!\n  stats: Stats\n}\ntype Stats { visits: Int! since: DateTime }\nscalar DateTime\n");
  await page.getByRole("button", { name: "Preview mocks" }).click();
  await expect(page.getByRole("status").filter({ hasText: "2 mocks: 2 new, 0 changing an existing mock, 0 unchanged." })).toBeVisible();
  await expect(page.getByRole("table", { name: "Mocks from the document" })).toContainText("query stats: Stats");
  await page.getByRole("button", { name: "Create 2 selected" }).click();
  await expect(page.getByRole("status").filter({ hasText: "2 created, 0 updated, 0 left as they were." })).toBeVisible();
  const stub = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const ask = () => stub.post(`/stubs/${ws.namespace}/graphql`, { data: { query: "{ hello stats { visits } }" } });
  await expect.poll(async () => (await ask()).status(), { timeout: 10_000 }).toBe(200);
  const { data } = await (await ask()).json();
  expect(data.hello).toBe("hello");
  expect(typeof data.stats.visits).toBe("number");
  await stub.dispose();
});

test("import a WSDL: the uploaded file previews a SOAP mock per operation and fault; a created one answers a SOAP 1.1 call", async ({ page, playwright }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/import?ns=${ws.namespace}`);
  await choose(page, "Format", /^SOAP: WSDL/);
  await page.getByRole("tab", { name: "Upload a file" }).click();
  await page.getByLabel("Choose a document").setInputFiles(LIBRARY_WSDL);
  await page.getByLabel("Path prefix").fill("/ws");
  await page.getByRole("button", { name: "Preview mocks" }).click();
  await expect(page.getByRole("status").filter({ hasText: "5 mocks: 5 new, 0 changing an existing mock, 0 unchanged." })).toBeVisible();
  await page.getByRole("button", { name: "Create 5 selected" }).click();
  await expect(page.getByRole("status").filter({ hasText: "5 created, 0 updated, 0 left as they were." })).toBeVisible();
  const stub = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
  const call = () =>
    stub.post(`/stubs/${ws.namespace}/ws/services/library.asmx`, {
      headers: { "content-type": "text/xml; charset=utf-8", SOAPAction: '"http://example.com/library/GetBook"' },
      data: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><GetBook xmlns="http://example.com/library"><Isbn>9780000000001</Isbn></GetBook></s:Body></s:Envelope>',
    });
  await expect.poll(async () => (await call()).status(), { timeout: 10_000 }).toBe(200);
  const text = await (await call()).text();
  expect(text).toContain("http://schemas.xmlsoap.org/soap/envelope/");
  expect(text).toContain("GetBookResponse");
  await stub.dispose();
});

test("export the namespace's HTTP mocks as OpenAPI: the downloaded document describes them; a Kafka mock is left out with a warning naming its protocol", async ({ page }) => {
  await loginViaUi(page, exportWs.owner);
  await page.goto(`/import?ns=${exportWs.namespace}`);
  await expect(page.getByRole("heading", { name: "Export specification" })).toBeVisible();
  await page.getByLabel("Title").fill("Orders");
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${exportWs.namespace}-openapi.json`);
  const spec = JSON.parse(readFileSync(await download.path(), "utf8"));
  expect(spec.openapi).toMatch(/^3\.0\./);
  expect(spec.info.title).toBe("Orders");
  expect(spec.paths["/orders/{id}"].get).toBeTruthy();
  await expect(page.getByRole("status").filter({ hasText: "1 of 2 mocks exported; the document was downloaded." })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "orders-created" }).filter({ hasText: "a kafka mock cannot be expressed in OpenAPI" })).toBeVisible();
  await screenshot(page, "import-export-spec");

  await choose(page, "Specification format", /^AsyncAPI 2\.6/);
  const again = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const asyncapi = JSON.parse(readFileSync(await (await again).path(), "utf8"));
  expect(asyncapi.asyncapi).toBe("2.6.0");
  expect(JSON.stringify(asyncapi.channels)).toContain('"x-service-address":"orders.created"');
});
