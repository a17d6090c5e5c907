// Performance testing in the browser, against our own stub: write a load
// test whose k6 script hits a mock of the namespace (a script the API refuses
// is shown at its line first), run it for 5 seconds and watch the live
// charts, read the final summary (thresholds ✓, http_reqs, k6's text
// summary), run it again and compare the two runs picked in the list, see the
// trend, schedule it, and look at the runner agents page. No page may log a
// console error on the way; each page is photographed.
import { expect, type Page, test } from "@playwright/test";
import { createMock, fillCode, newWorkspace, type Workspace } from "./support/mocks";
import { screenshot } from "./support/session";
import { adminApi, loginViaUi } from "./support/ui";

let ws: Workspace;

test.beforeAll(async () => {
  const api = await adminApi();
  ws = await newWorkspace(api, "perf");
  await createMock(api, ws.namespace, { http: { route: "/perf-target", httpMethod: "GET" }, response: { statusCode: 200, payload: { ok: true } } });
  await api.dispose();
});

/** Console errors, uncaught exceptions and failed page loads, as the console-errors spec collects them. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // Chromium's own network line for the save answered 400 on purpose (the broken script below, shown on the page), not the app's.
    if (msg.text().startsWith("Failed to load resource") && (msg.location().url ?? "").includes("/api/trpc/perf.configs.create")) return;
    errors.push(`${page.url()}: console.error: ${msg.text()} ${msg.location().url ?? ""}`);
  });
  page.on("pageerror", (err) => errors.push(`${page.url()}: pageerror: ${err.message}`));
  page.on("response", (res) => {
    if (res.status() >= 400 && res.request().resourceType() !== "fetch" && res.request().resourceType() !== "xhr") errors.push(`${page.url()}: ${res.status()} for ${res.url()}`);
  });
  return errors;
}

/** No loading placeholders left in the page's main part. */
async function settled(page: Page) {
  await expect(page.getByRole("status", { name: /^Loading/ })).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator("main [data-slot=skeleton]")).toHaveCount(0, { timeout: 30_000 });
}

const SCRIPT = `import http from "k6/http";
import { check, sleep } from "k6";

export default function () {
  const res = http.get(\`\${__ENV.BASE_URL}/perf-target\`);
  check(res, { "status is 200": (r) => r.status === 200 });
  sleep(0.2);
}
`;

/** Waits until the result page shows the run has passed, and returns its id. */
async function finishedResult(page: Page): Promise<string> {
  await expect(page).toHaveURL(/\/perf\/results\/[0-9a-f-]{36}/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main [data-slot=badge]").filter({ hasText: /^passed$/ }).first()).toBeVisible({ timeout: 90_000 });
  return /\/perf\/results\/([0-9a-f-]{36})/.exec(page.url())![1]!;
}

test("a 5-second load test against our stub: live charts, k6 summary, compare, trend and a schedule", async ({ page }) => {
  test.setTimeout(420_000);
  const errors = collectErrors(page);
  await loginViaUi(page, ws.owner);

  // Performance has its place in the sidebar; an empty namespace teaches how to start.
  await page.goto(`/dashboard?ns=${ws.namespace}`);
  const navLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Load tests" });
  // The sidebar's links carry the namespace once the list of namespaces has loaded.
  await expect(navLink).toHaveAttribute("href", new RegExp(`ns=${ws.namespace}`));
  await navLink.click();
  await expect(page).toHaveURL(/\/perf\?ns=/);
  await expect(page.getByRole("heading", { name: "Create a load test" })).toBeVisible();
  await settled(page);
  await screenshot(page, "perf-empty");

  await page.getByRole("link", { name: "New load test" }).first().click();
  await expect(page.getByRole("heading", { name: "New load test", level: 1 })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("Stub smoke");

  // A script the engine refuses is named at its line, and the cursor goes there.
  await fillCode(page, "k6 script", 'import http from "k6/http";\n\nexport default function () {\n  http.get(;\n}\n');
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: /The script has a problem at line 4/ })).toBeVisible({ timeout: 30_000 });
  await screenshot(page, "perf-editor-error");

  // The server's generator writes a script from a URL; the snippets menu offers its examples too.
  await page.getByRole("button", { name: "Generate" }).click();
  await page.getByRole("menuitem", { name: "From a URL…" }).click();
  const generate = page.getByRole("dialog", { name: "Generate from a URL" });
  await generate.getByLabel("URL").fill(`${process.env.E2E_BASE_URL}/stubs/${ws.namespace}/perf-target`);
  await generate.getByRole("button", { name: "Generate script" }).click();
  await expect(generate).toBeHidden();
  await expect(page.getByText(/^Generated from http/)).toBeVisible();
  await expect(page.getByTestId("code-editor-k6 script")).toContainText("http.get");
  await page.getByRole("button", { name: "Snippets" }).click();
  await expect(page.getByRole("menu").getByText("Replace the script with an example")).toBeVisible();
  await expect.poll(() => page.getByRole("menuitem").count()).toBeGreaterThan(12);
  await page.keyboard.press("Escape");

  await fillCode(page, "k6 script", SCRIPT);
  const options = page.getByRole("complementary", { name: "Run options" });
  // The ramp is drawn as it is typed.
  await options.getByRole("button", { name: "Ramp (stages)" }).click();
  await expect(options.getByTestId("ramp-chart")).toBeVisible();
  await options.getByRole("button", { name: "VUs × duration" }).click();
  await options.getByLabel("VUs", { exact: true }).fill("2");
  await options.getByLabel("Duration", { exact: true }).fill("5s");
  // A generous latency bound: the machine running the tests is busy, the stub is not what is measured.
  await options.getByLabel("Threshold 1 expression").fill("p(95)<5000");
  await options.getByRole("region", { name: "Environment (__ENV)" }).getByRole("button", { name: "Add" }).click();
  await options.getByLabel("Variable 1 name").fill("BASE_URL");
  await options.getByLabel("Variable 1 value").fill(`${process.env.E2E_BASE_URL}/stubs/${ws.namespace}`);
  await expect(page.getByRole("alert").filter({ hasText: /The script has a problem/ })).toHaveCount(0);
  await screenshot(page, "perf-editor");

  // Ctrl/Cmd+Enter saves and runs from anywhere in the editor page.
  await page.getByLabel("Description").press("ControlOrMeta+Enter");
  await expect(page).toHaveURL(/\/perf\/results\/[0-9a-f-]{36}/, { timeout: 30_000 });
  // Live: the progress bar and the charts grow while it runs.
  await expect(page.getByRole("progressbar", { name: "Run progress" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("run-charts")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await screenshot(page, "perf-result-live");

  const first = await finishedResult(page);
  await expect(page.getByRole("progressbar", { name: "Run progress" })).toHaveCount(0);
  const charts = page.getByTestId("run-charts");
  for (const title of ["Requests/s", "Latency", "Errors", "VUs"]) await expect(charts.getByRole("figure", { name: title })).toBeVisible();
  const thresholds = page.getByRole("table", { name: "Thresholds" });
  await expect(thresholds.getByRole("row")).toHaveCount(3);
  await expect(thresholds.locator("tr[data-ok=false]")).toHaveCount(0);
  await expect(thresholds.getByLabel("passed")).toHaveCount(2);
  const httpReqs = page.getByRole("table", { name: "Metrics" }).getByRole("row").filter({ hasText: /^http_reqs/ });
  const requests = Number(((await httpReqs.getByRole("cell").nth(1).textContent()) ?? "").trim().split(/\s+/)[0]!.replace(/,/g, ""));
  expect(requests).toBeGreaterThan(0);
  await expect(page.getByRole("list", { name: "Checks" }).getByText("status is 200")).toBeVisible();
  const summary = page.getByTestId("k6-summary");
  await expect(summary).toContainText("http_reqs");
  await expect(summary).toContainText("status is 200");
  await settled(page);
  await screenshot(page, "perf-result");

  // A second run of the same load test, then both picked in the list and compared.
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page).not.toHaveURL(new RegExp(first));
  const second = await finishedResult(page);
  await expect(page.getByRole("link", { name: "Compare with the run before" })).toBeVisible();

  await page.goto(`/perf?ns=${ws.namespace}`);
  await settled(page);
  const runs = page.getByRole("table", { name: "Recent runs" });
  await expect(runs.getByRole("row")).toHaveCount(3);
  await screenshot(page, "perf-list");
  await runs.getByRole("checkbox", { name: "Select every shown result" }).check();
  await page.getByRole("button", { name: /^Compare \(2\)$/ }).click();
  await expect(page).toHaveURL(/\/perf\/compare\?ids=/);
  await expect(page.getByRole("heading", { name: "Compare runs", level: 1 })).toBeVisible();
  const headline = page.getByRole("table", { name: "Headline" });
  await expect(headline.getByRole("row").filter({ hasText: "Requests/s" })).toBeVisible();
  await expect(headline.getByRole("columnheader", { name: "Baseline" })).toBeVisible();
  // The older run is the baseline, whatever order they were picked in.
  expect(page.url()).toContain(`ids=${first},${second}`);
  await settled(page);
  await screenshot(page, "perf-compare");

  // The load test's trend: one point per run, each opening its result.
  await page.goto(`/perf?ns=${ws.namespace}`);
  await page.getByRole("table", { name: "Load tests" }).getByRole("link", { name: "Stub smoke", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Stub smoke", level: 1 })).toBeVisible();
  await page.getByRole("tab", { name: "Trend" }).click();
  await expect(page.getByTestId("trend-chart")).toBeVisible();
  await expect(page.getByTestId("trend-chart").locator("circle.cursor-pointer")).toHaveCount(2);
  await expect(page.getByRole("table", { name: "Runs in the trend" }).getByRole("row")).toHaveCount(3);
  await settled(page);
  await screenshot(page, "perf-trend");
  await page.getByRole("tab", { name: "Runs" }).click();
  await expect(page.getByRole("table", { name: "Runs of Stub smoke" }).getByRole("row")).toHaveCount(3);

  // A schedule of the load test, its cron checked while typing.
  await page.goto(`/perf/schedules?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "No load schedules yet" })).toBeVisible();
  await screenshot(page, "perf-schedules-empty");
  await page.getByRole("button", { name: "New schedule" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New load schedule" });
  await dialog.getByLabel("Name").fill("Nightly smoke");
  await dialog.getByLabel("Load test").selectOption({ label: "Stub smoke" });
  const cron = dialog.getByLabel("Cron expression");
  await cron.fill("61 3 * * *");
  await expect(dialog.getByText(/Invalid value for minute: 61/).first()).toBeVisible();
  await cron.fill("30 3 * * *");
  await dialog.getByLabel("Time zone").fill("UTC");
  await expect(dialog.getByRole("region", { name: "Next occurrences" }).getByRole("listitem")).toHaveCount(5);
  await screenshot(page, "perf-schedule-form");
  await dialog.getByRole("button", { name: "Create schedule" }).click();
  await expect(dialog).toBeHidden();
  const occurrences = page.getByRole("region", { name: "Next occurrences of Nightly smoke" });
  await expect(occurrences.getByRole("listitem")).toHaveCount(5);
  await expect(occurrences.getByRole("listitem").first()).toContainText("03:30");
  await expect(page.getByRole("link", { name: "Stub smoke" })).toBeVisible();
  await screenshot(page, "perf-schedules");

  // Runner agents: none registered here, so the page says how to start one.
  await page.goto(`/perf/runners?ns=${ws.namespace}`);
  await expect(page.getByRole("heading", { name: "No runner agents yet" })).toBeVisible();
  await expect(page.getByTestId("runner-command")).toContainText(`npx polymock runner --server ${process.env.E2E_BASE_URL} --token`);
  await settled(page);
  await screenshot(page, "perf-runners");

  expect(errors).toEqual([]);
});
