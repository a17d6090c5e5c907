// Sample collections, environments, a response with its scripts' verdicts and
// a finished run, for workspace-preview.tsx until the page feeds real data.
import type { ExecutedResponse, ScriptVerdict, SentRequest } from "@/server/contracts/tester-execution";
import { type RequestDefinition, SECRET_MASK, type Variable } from "@/server/contracts/tester-request";
import type { TestRunDetail } from "@/server/contracts/tester-run";
import type { TreeCollection } from "./collection-tree-model";

export const SAMPLE_COLLECTIONS: TreeCollection[] = [
  {
    id: "col-shop",
    name: "Shop API",
    folders: [
      { id: "fld-auth", parentId: null, name: "Auth", sortIndex: 0 },
      { id: "fld-orders", parentId: null, name: "Orders", sortIndex: 1 },
      { id: "fld-refunds", parentId: "fld-orders", name: "Refunds", sortIndex: 0 },
    ],
    requests: [
      { id: "req-login", name: "Log in", method: "POST", url: "{{baseUrl}}/auth/login", kind: "http", folderId: "fld-auth", sortIndex: 0 },
      { id: "req-list", name: "List orders", method: "GET", url: "{{baseUrl}}/orders?status=paid", kind: "http", folderId: "fld-orders", sortIndex: 0 },
      { id: "req-create", name: "Create order", method: "POST", url: "{{baseUrl}}/orders", kind: "http", folderId: "fld-orders", sortIndex: 1 },
      { id: "req-delete", name: "Cancel order", method: "DELETE", url: "{{baseUrl}}/orders/{{orderId}}", kind: "http", folderId: "fld-orders", sortIndex: 2 },
      { id: "req-refund", name: "Refund order", method: "POST", url: "{{baseUrl}}/orders/{{orderId}}/refunds", kind: "http", folderId: "fld-refunds", sortIndex: 0 },
      { id: "req-graphql", name: "Products (GraphQL)", method: "POST", url: "{{baseUrl}}/graphql", kind: "graphql", folderId: null, sortIndex: 0 },
      { id: "req-health", name: "Health", method: "GET", url: "{{baseUrl}}/health", kind: "http", folderId: null, sortIndex: 1 },
    ],
  },
  {
    id: "col-pay",
    name: "Payments",
    folders: [],
    requests: [{ id: "req-charge", name: "Charge a card", method: "PUT", url: "{{payUrl}}/charges/{{chargeId}}", kind: "http", folderId: null, sortIndex: 0 }],
  },
];

export const SAMPLE_ENVIRONMENTS: { id: string; name: string; variables: Variable[] }[] = [
  {
    id: "env-local",
    name: "Local",
    variables: [
      { key: "baseUrl", value: "http://localhost:5770/stubs/sandbox", secret: false, enabled: true },
      { key: "orderId", value: "ord_1042", secret: false, enabled: true },
      { key: "apiKey", value: "sk_test_51Hx", secret: true, enabled: true },
      { key: "refreshToken", value: SECRET_MASK, secret: true, enabled: true },
    ],
  },
  { id: "env-staging", name: "Staging", variables: [{ key: "baseUrl", value: "https://staging.shop.example", secret: false, enabled: true }] },
];

const base: RequestDefinition = {
  kind: "http",
  method: "GET",
  url: "",
  headers: [],
  params: [],
  body: { mode: "none" },
  auth: { type: "inherit" },
  settings: { timeoutMs: 30_000, followRedirects: true, maxRedirects: 10, verifyTls: true },
  scripts: {},
};

/** The definition of a sample request (what the page would load by id). */
export function sampleDefinition(id: string): RequestDefinition {
  const summary = SAMPLE_COLLECTIONS.flatMap((c) => c.requests).find((r) => r.id === id);
  const def: RequestDefinition = { ...base, method: summary?.method ?? "GET", url: summary?.url ?? "", kind: summary?.kind === "graphql" ? "graphql" : "http" };
  if (id === "req-create")
    return {
      ...def,
      headers: [
        { key: "Content-Type", value: "application/json", enabled: true },
        { key: "X-Api-Key", value: "{{apiKey}}", enabled: true, description: "from the environment" },
        { key: "X-Trace", value: "{{traceId}}", enabled: false },
      ],
      params: [{ key: "notify", value: "true", enabled: true }],
      body: { mode: "raw", language: "json", raw: '{"customerId":"cus_77","items":[{"sku":"TSHIRT-M","qty":2}],"total":{{total}}}' },
      auth: { type: "bearer", bearer: { token: "{{accessToken}}" } },
      scripts: {
        preRequest: 'pm.variables.set("total", 59.9);\n',
        test: 'pm.test("Status code is 201", function () {\n  pm.response.to.have.status(201);\n});\n\npm.test("Order id is returned", function () {\n  const order = pm.response.json();\n  pm.expect(order.id).to.be.a("string");\n  pm.environment.set("orderId", order.id);\n});\n',
      },
    };
  if (id === "req-graphql") return { ...def, body: { mode: "graphql", graphql: { query: "query Products($first: Int) {\n  products(first: $first) {\n    id\n    name\n    price\n  }\n}\n", variables: '{\n  "first": 10\n}' } } };
  return def;
}

export const SAMPLE_SENT: SentRequest = {
  method: "POST",
  url: "http://localhost:5770/stubs/sandbox/orders?notify=true",
  headers: [
    { key: "Content-Type", value: "application/json" },
    { key: "X-Api-Key", value: "••••••" },
    { key: "Authorization", value: "Bearer ••••••" },
  ],
  body: '{"customerId":"cus_77","items":[{"sku":"TSHIRT-M","qty":2}],"total":59.9}',
  bodyEncoding: "utf8",
};

export const SAMPLE_RESPONSE: ExecutedResponse = {
  status: 201,
  statusText: "Created",
  headers: [
    { key: "Content-Type", value: "application/json; charset=utf-8" },
    { key: "Location", value: "/orders/ord_1043" },
    { key: "Set-Cookie", value: "session=abc123; Path=/; HttpOnly" },
    { key: "Set-Cookie", value: "region=eu; Path=/; Max-Age=3600" },
    { key: "X-Request-Id", value: "5f0c2b1e-7d1a-4d2c-9f0e-7b1c2a3d4e5f" },
  ],
  body: '{"id":"ord_1043","status":"pending","customerId":"cus_77","items":[{"sku":"TSHIRT-M","qty":2,"price":29.95}],"total":59.9,"createdAt":"2026-11-25T09:30:00Z"}',
  bodyEncoding: "utf8",
  bodyTruncated: false,
  size: { headers: 312, body: 164 },
  cookies: [
    { name: "session", value: "abc123", path: "/", httpOnly: true },
    { name: "region", value: "eu", path: "/", expires: "2026-11-25T10:30:00Z", sameSite: "Lax" },
  ],
  timings: { dnsMs: 1.8, connectMs: 3.1, tlsMs: 0, firstByteMs: 41.6, downloadMs: 2.4, totalMs: 49.9 },
  url: "http://localhost:5770/stubs/sandbox/orders?notify=true",
  redirects: [],
  httpVersion: "1.1",
  remoteAddress: "127.0.0.1:5770",
};

const verdict = (v: Partial<ScriptVerdict>): ScriptVerdict => ({ status: "passed", success: true, totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0, tests: [], logs: [], durationMs: 3, ...v });

export const SAMPLE_PRE_VERDICT = verdict({ logs: [{ level: "log", message: "total = 59.9", at: 0.4 }], durationMs: 1.2 });
export const SAMPLE_TEST_VERDICT = verdict({
  status: "failed",
  success: false,
  totalTests: 3,
  passedTests: 2,
  failedTests: 1,
  tests: [
    { name: "Status code is 201", status: "passed" },
    { name: "Order id is returned", status: "passed" },
    { name: "Order is paid", status: "failed", error: "AssertionError: expected 'pending' to deeply equal 'paid'" },
  ],
  logs: [
    { level: "info", message: "orderId = ord_1043", at: 1.1 },
    { level: "warn", message: "status is still pending", at: 1.6 },
  ],
});

export const SAMPLE_RUN: TestRunDetail = {
  id: "run-1",
  namespace: "sandbox",
  name: "Shop API · Local",
  mode: "functional",
  status: "failed",
  referenceId: null,
  collectionIds: ["col-shop"],
  environmentId: "env-local",
  iterations: 2,
  counts: { requests: 6, passedRequests: 4, failedRequests: 2, skippedRequests: 0, tests: 9, passedTests: 7, failedTests: 2, skippedTests: 0 },
  statusReason: null,
  createdBy: "ann@example.com",
  startedAt: "2026-11-25T09:30:00Z",
  finishedAt: "2026-11-25T09:30:02Z",
  durationMs: 1840,
  createdAt: "2026-11-25T09:30:00Z",
  source: "run",
  results: [0, 1].flatMap((iteration) => [
    { iteration, collectionId: "col-shop", requestId: "req-login", name: "Log in", path: ["Shop API", "Auth"], method: "POST", url: "http://localhost:5770/stubs/sandbox/auth/login", status: "passed" as const, responseCode: 200, responseTimeMs: 38, responseSize: 220, tests: [{ name: "Token is returned", status: "passed" as const }], logs: [], error: null, startedAt: "2026-11-25T09:30:00Z" },
    {
      iteration,
      collectionId: "col-shop",
      requestId: "req-create",
      name: "Create order",
      path: ["Shop API", "Orders"],
      method: "POST",
      url: "http://localhost:5770/stubs/sandbox/orders",
      status: iteration === 0 ? ("passed" as const) : ("failed" as const),
      responseCode: 201,
      responseTimeMs: 52,
      responseSize: 164,
      tests: [
        { name: "Status code is 201", status: "passed" as const },
        iteration === 0 ? { name: "Order is pending", status: "passed" as const } : { name: "Order is pending", status: "failed" as const, error: "expected 'paid' to equal 'pending'" },
      ],
      logs: [{ level: "info" as const, message: `iteration ${iteration + 1}`, at: 0.8 }],
      error: null,
      startedAt: "2026-11-25T09:30:01Z",
    },
    { iteration, collectionId: "col-shop", requestId: "req-delete", name: "Cancel order", path: ["Shop API", "Orders"], method: "DELETE", url: "http://localhost:5770/stubs/sandbox/orders/ord_1043", status: iteration === 0 ? ("passed" as const) : ("error" as const), responseCode: iteration === 0 ? 204 : null, responseTimeMs: iteration === 0 ? 21 : null, responseSize: iteration === 0 ? 0 : null, tests: iteration === 0 ? [{ name: "No content", status: "passed" as const }] : [], logs: [], error: iteration === 0 ? null : "connection_refused: connect ECONNREFUSED 127.0.0.1:5770", startedAt: "2026-11-25T09:30:01Z" },
  ]),
};
