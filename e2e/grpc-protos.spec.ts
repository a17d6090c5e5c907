// The gRPC protos screen and gRPC mocks made in the editor, answered to a real
// @grpc/grpc-js client on the runner's gRPC port: a bad .proto shows the
// parser's file:line:column and stores nothing; a good one lists its services
// and methods; the editor's pickers offer them, "Insert skeleton" starts the
// payload from the output message, and the status picker names the codes.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { expect, test } from "@playwright/test";
import { choose, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi, uniq } from "./support/ui";

let ws: Workspace;
// A package of its own: every namespace's protos share the one gRPC listener.
const pkg = `e2e${Date.now().toString(36)}`;
const PROTO = `syntax = "proto3";
package ${pkg};
message HelloRequest { string name = 1; }
message HelloReply { string message = 1; int32 count = 2; repeated string tags = 3; }
service Greeter {
  rpc SayHello (HelloRequest) returns (HelloReply);
  rpc Watch (HelloRequest) returns (stream HelloReply);
}
`;
const BAD = `syntax = "proto3";\npackage ${pkg};\nmessage Broken {\n  string name = ;\n}\n`;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "grpc");
  await api.dispose();
});

/** A grpc-js client of the Greeter on the runner's port; calls name the namespace in metadata. */
function greeter() {
  const dir = mkdtempSync(path.join(tmpdir(), "e2e-grpc-"));
  writeFileSync(path.join(dir, "greeter.proto"), PROTO);
  const def = protoLoader.loadSync("greeter.proto", { includeDirs: [dir], keepCase: true, defaults: true });
  const Greeter = (grpc.loadPackageDefinition(def) as any)[pkg].Greeter;
  return new Greeter(`127.0.0.1:${process.env.E2E_GRPC_PORT}`, grpc.credentials.createInsecure());
}

function sayHello(client: any, name: string): Promise<{ code: number; details?: string; reply?: Record<string, unknown> }> {
  const meta = new grpc.Metadata();
  meta.set("x-namespace", ws.namespace);
  return new Promise((resolve) => client.SayHello({ name }, meta, (err: grpc.ServiceError | null, reply: Record<string, unknown>) => resolve(err ? { code: err.code, details: err.details } : { code: 0, reply })));
}

test("upload .proto files (a parse error names line and column), list services and methods, delete", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/grpc?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "gRPC protos", level: 1 })).toBeVisible();
  await expect(page.getByText("No .proto files yet")).toBeVisible();
  await screenshot(page, "grpc-protos-empty");

  await page.getByLabel("Choose .proto files").setInputFiles([{ name: "broken.proto", mimeType: "text/plain", buffer: Buffer.from(BAD) }]);
  await expect(page.getByLabel("Name of file 1")).toHaveValue("broken.proto");
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  const error = page.getByRole("alert").filter({ hasText: "Nothing was uploaded" });
  await expect(error).toContainText("broken.proto:4:");
  await screenshot(page, "grpc-protos-parse-error");
  await page.getByRole("button", { name: "Remove broken.proto" }).click();
  await expect(page.getByText("No .proto files yet")).toBeVisible();

  // Paste a file, then upload it.
  await page.getByText("Paste a file instead").click();
  await page.getByLabel("File name (its import path)").fill(`${pkg}/greeter.proto`);
  await page.getByLabel(".proto text").fill(PROTO);
  await page.getByRole("button", { name: "Add pasted file" }).click();
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  const table = page.getByRole("table", { name: "Uploaded .proto files" });
  await expect(table).toContainText(`${pkg}/greeter.proto`);
  const methods = table.getByRole("list", { name: `Methods of ${pkg}.Greeter` });
  await expect(methods).toContainText("SayHello");
  await expect(methods).toContainText("unary");
  await expect(methods).toContainText(`(${pkg}.HelloRequest) → ${pkg}.HelloReply`);
  await expect(methods).toContainText("server-stream");
  await screenshot(page, "grpc-protos");

  await page.getByRole("button", { name: `Delete ${pkg}/greeter.proto` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete file" }).click();
  await expect(page.getByText("No .proto files yet")).toBeVisible();
});

test("several files that import each other go up together; the imported one cannot be deleted first", async ({ page }) => {
  await loginViaUi(page, ws.owner);
  await page.goto(`/grpc?ns=${ws.namespace}`);
  const types = `syntax = "proto3";\npackage ${pkg}.multi;\nmessage Item { string sku = 1; }\n`;
  const shop = `syntax = "proto3";\npackage ${pkg}.multi;\nimport "multi/types.proto";\nservice Shop { rpc Get (Item) returns (Item); rpc Feed (stream Item) returns (stream Item); }\n`;
  await page.getByLabel("Choose .proto files").setInputFiles([
    { name: "types.proto", mimeType: "text/plain", buffer: Buffer.from(types) },
    { name: "shop.proto", mimeType: "text/plain", buffer: Buffer.from(shop) },
  ]);
  // The names are the import paths: shop.proto imports "multi/types.proto".
  await page.getByLabel("Name of file 1").fill("multi/types.proto");
  await page.getByLabel("Name of file 2").fill("multi/shop.proto");
  await page.getByRole("button", { name: "Upload 2 files" }).click();
  const table = page.getByRole("table", { name: "Uploaded .proto files" });
  const methods = table.getByRole("list", { name: `Methods of ${pkg}.multi.Shop` });
  await expect(methods).toContainText("bidi");
  await expect(methods).toContainText(`(${pkg}.multi.Item) → ${pkg}.multi.Item`);

  await page.getByRole("button", { name: "Delete multi/types.proto" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete file" }).click();
  await expect(page.getByText("'multi/types.proto' is imported by 'multi/shop.proto'")).toBeVisible();
  await expect(table).toContainText("multi/types.proto");
  for (const name of ["multi/shop.proto", "multi/types.proto"]) {
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete file" }).click();
    await expect(table.getByText(name, { exact: true })).toHaveCount(0);
  }
});

test("a gRPC mock made with the pickers and the skeleton answers a grpc-js client", async ({ page }) => {
  test.slow();
  await loginViaUi(page, ws.owner);
  // Without protos the editor takes free text and points at the protos screen.
  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  await choose(page, "Protocol", "gRPC");
  await expect(page.getByText("No .proto files in this namespace yet")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Service" })).toBeVisible();

  await page.goto(`/grpc?ns=${ws.namespace}`);
  await page.getByLabel("Choose .proto files").setInputFiles([{ name: "greeter.proto", mimeType: "text/plain", buffer: Buffer.from(PROTO) }]);
  await page.getByRole("button", { name: "Upload 1 file" }).click();
  await expect(page.getByRole("table", { name: "Uploaded .proto files" })).toContainText("SayHello");

  await page.goto(`/mocks/new?ns=${ws.namespace}`);
  const id = uniq("hello");
  await page.getByLabel("Mock id").fill(id);
  await choose(page, "Protocol", "gRPC");
  await choose(page, "Service", `${pkg}.Greeter`);
  await choose(page, "gRPC method", "SayHello");
  await expect(page.getByRole("group", { name: "Method signature" })).toContainText(`(${pkg}.HelloRequest) → ${pkg}.HelloReply`);
  await page.getByRole("button", { name: "Insert skeleton" }).click();
  const payload = page.getByTestId("code-editor-Response payload");
  await expect(payload).toContainText('"message": ""');
  await expect(payload).toContainText('"count": 0');
  await screenshot(page, "mock-editor-grpc");
  await page.getByRole("button", { name: "Add message condition" }).click();
  await page.getByLabel("Message condition 1 path").fill("$.name");
  await page.getByLabel("Message condition 1 value").fill("Ada");
  await fillCode(page, "Response payload", '{"message": "hello $.req.name", "count": 2, "tags": ["e2e"]}');
  await expect(page.getByRole("combobox", { name: "Response gRPC status" })).toContainText("0 OK");
  await page.getByRole("button", { name: "Save mock" }).first().click();
  await expect(page.getByText(`Mock “${id}” created`)).toBeVisible();

  const client = greeter();
  try {
    await expect.poll(async () => (await sayHello(client, "Ada")).reply, { timeout: 20_000 }).toEqual({ message: "hello Ada", count: 2, tags: ["e2e"] });

    // The status picker: the same mock now fails with NOT_FOUND and a message.
    await choose(page, "Response gRPC status", "5 NOT_FOUND");
    await page.getByLabel("Response status message").fill("no such greeting");
    await page.getByRole("button", { name: "Save mock" }).first().click();
    await expect(page.getByText(`Mock “${id}” saved`)).toBeVisible();
    await expect.poll(async () => (await sayHello(client, "Ada")).code, { timeout: 20_000 }).toBe(grpc.status.NOT_FOUND);
    expect((await sayHello(client, "Ada")).details).toBe("no such greeting");
  } finally {
    client.close();
  }
});
