// Every documented operation, run against its real route handler and a real
// database: the success case and the errors the document lists (400, 401,
// 403, 404, 409, 413). Each answer's status, media type and body are validated
// against /swagger/doc.json with ajv; response objects there are closed, so a
// leaked field fails too.
import { generatorFixture, importFixture } from "@/server/tester/import/test-helpers";
import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { buildSchema, graphql } from "graphql";
import { z } from "zod";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { resetEnvCache } from "@/server/env";
import { checkAnswer, documentedOperations, loadHandlers, operation, type RouteHandler } from "@/server/testing/api-routes";
import { recordReceivedMail } from "@/server/services/smtp-mailbox";
import { createNamespaceIntegration } from "@/server/services/integrations";
import { stopRunnerQueue } from "@/server/services/runners/queue";
import { resolveNamespace } from "@/server/services/namespace-access";
import { recordHistory } from "@/server/services/tester/history";
import { appendRunResults, createTestRun, finishTestRun } from "@/server/services/tester/test-runs";
import { actorFor, type CallOptions, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { type SmtpSink, startSmtpSink } from "@/server/testing/smtp-sink";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { type KafkaMockCluster, startKafkaMockCluster } from "@/protocol-runner/kafka/mock-cluster";
import { connect as amqpConnect } from "amqplib";

useTestDatabase();

/**
 * Operations (or one status of one) this test cannot drive, and why. Keep short.
 */
const NOT_EXERCISED: Record<string, string> = {
  // Needs a reachable LDAP directory with a matching account; ldap.db.test.ts covers it against a real slapd.
  "POST /api/v1/auth/ldap/login 2xx": "needs a running slapd",
  // next-auth's CSRF handler reads cookies through Next's request scope, absent outside Next; e2e/oidc-login.spec.ts covers it.
  "GET /api/v1/auth/oauth/login/{provider} 2xx": "needs the Next.js request scope",
  // The 409s below need a state that only a race or a 10,000-key store produces; their services' own tests cover them.
  "POST /api/v1/stores/global 409": "store_full needs 10,000 keys",
  "POST /api/v1/stores/chain/{id} 409": "store_full needs 10,000 keys",
  "POST /api/v1/auth/ldap/login 409": "needs a running slapd",
  "PATCH /api/v1/mocks/{id} 409": "only a concurrent write or a stored mock that no longer fits the contract",
  "POST /api/v1/mocks/{id}/versions/{version}/restore 409": "only a version that no longer fits the contract",
  "POST /api/v1/mocks/batch/restore 409": "only a concurrent write",
  "PATCH /api/v1/mocks/batch/tags 409": "only a concurrent write",
  "PATCH /api/v1/mocks/batch/move 409": "only a concurrent write",
  "POST /api/v1/mocks/copy-to-namespace 409": "only a concurrent write",
  // librdkafka's mock cluster (the only Kafka here) names a controller it does not list, so CreateTopics and DeleteTopics have nowhere to go; broker-admin/kafka-admin.db.test.ts covers their 502.
  "POST /api/v1/api-tester/kafka/topics/create 2xx": "needs a real Kafka controller",
  "POST /api/v1/api-tester/kafka/topics/create 409": "needs a real Kafka controller",
  "POST /api/v1/api-tester/kafka/topics/delete 2xx": "needs a real Kafka controller",
};

type Req = Omit<CallOptions, "method" | "ip"> & { query?: string };

let handlers: Map<string, RouteHandler>;
const seen = new Map<string, Set<string>>(); // operation → statuses answered ("2xx" for success)
const successes = new Map<string, Req>(); // operation → its success request, reused by the error cases

function urlOf(key: string, p: Record<string, string> = {}, query = "") {
  const path = key.split(" ")[1].replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(p[n] ?? "x"));
  return `http://localhost:5770${path}${query ? `?${query}` : ""}`;
}

async function send(key: string, r: Req) {
  const handler = handlers.get(key);
  if (!handler) throw new Error(`no route handler for ${key}`);
  const headers = new Headers(r.headers);
  headers.set("x-polymock-peer", "127.0.0.1");
  if (r.cookie) headers.set("cookie", r.cookie);
  if (r.token) headers.set("x-api-key", r.token);
  let body = r.rawBody;
  if (r.body !== undefined) {
    body = JSON.stringify(r.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(urlOf(key, r.params, r.query), { method: key.split(" ")[0], headers, body });
  const res = await handler(req, { params: Promise.resolve(r.params as Record<string, string>) });
  const contentType = res.headers.get("content-type");
  // An event stream never ends: its headers are the answer.
  const text = contentType?.startsWith("text/event-stream") ? (await res.body?.cancel(), "") : await res.text();
  return { status: res.status, contentType, text };
}

/** Sends, checks the answer against the document and the expected status, and returns the parsed body. */
async function expectAnswer(key: string, r: Req, status: number): Promise<any> {
  const answer = await send(key, r);
  expect(checkAnswer(key, answer), key).toEqual([]);
  expect(answer.status, `${key}: ${answer.text.slice(0, 300)}`).toBe(status);
  if (!seen.has(key)) seen.set(key, new Set());
  seen.get(key)!.add(status < 300 ? "2xx" : String(status));
  try {
    return JSON.parse(answer.text);
  } catch {
    return answer.text;
  }
}

let admin: { id: string; cookie: string };
let owner: { id: string; username: string; cookie: string };
let outsider: { id: string; cookie: string };
let readToken: string;
let writeOnlyToken: string;
let sink: SmtpSink;
let kafkaCluster: KafkaMockCluster | undefined;
const NS = "svc";

/** A 409, the request naming the namespace unless it names its own query. */
const c409 = (key: string, r: Req) => expectAnswer(key, { cookie: admin.cookie, ...r, query: r.query ?? `namespace=${NS}` }, 409);

/** The success case, remembered so the error cases reuse a request that otherwise parses. */
async function ok(key: string, r: Req, status = 200) {
  const req = { cookie: admin.cookie, ...r, query: r.query ?? (namespaced(key) ? `namespace=${NS}` : undefined) };
  successes.set(key, req);
  return expectAnswer(key, req, status);
}

const namespaced = (key: string) => operation(key).parameters.some((p: any) => p.in === "query" && p.name === "namespace");

/** The query with its namespace replaced. */
function inNamespace(query: string | undefined, ns: string) {
  const q = new URLSearchParams(query);
  q.set("namespace", ns);
  return q.toString();
}

/** Path parameters that parse but name nothing. */
function absentParams(key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of operation(key).parameters as { name: string; in: string; schema: { format?: string; type?: string } }[]) {
    if (p.in !== "path") continue;
    out[p.name] = p.schema.format === "uuid" || /^(id|user_id|fileId)$/.test(p.name) ? randomUUID() : p.schema.type === "integer" ? "999" : "absent-zz";
  }
  return out;
}

beforeAll(async () => {
  handlers = await loadHandlers();
  sink = await startSmtpSink({});
  const a = await makeUser({ role: "admin", username: "root-admin", email: "root@example.test" });
  admin = { id: a.user.id, cookie: await sessionCookie(a.user.id) };
  const o = await makeUser({ username: "ns-owner", email: "owner@example.test", namespaces: { [NS]: "owner", sandbox: "owner" } });
  owner = { id: o.user.id, username: o.user.username, cookie: await sessionCookie(o.user.id) };
  const x = await makeUser({ username: "outsider" });
  outsider = { id: x.user.id, cookie: await sessionCookie(x.user.id) };
  readToken = await makeToken(o.user, { permissions: ["read"], namespace: NS });
  writeOnlyToken = await makeToken(o.user, { permissions: ["write"], namespace: NS });
});

afterAll(async () => {
  await sink?.stop();
  await kafkaCluster?.stop();
  await stopRunnerQueue();
});

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("every documented operation, success case, validated against the document", () => {
  it("health, metrics and the document itself", async () => {
    await ok("GET /health", {});
    await ok("GET /health/live", {});
    await ok("GET /health/ready", {});
    await ok("GET /metrics", {});
    await ok("GET /swagger/doc.json", {});
  });

  it("authentication", async () => {
    const login = await makeUser({ username: "loginner", password: "long enough pw", email: "loginner@example.test" });
    await ok("POST /api/v1/auth/login", { cookie: undefined, body: { username: "loginner", password: "long enough pw" } });
    const cookie = await sessionCookie(login.user.id);
    await ok("GET /api/v1/auth/me", { cookie });
    await ok("PATCH /api/v1/auth/me", { cookie, body: { fullName: "Log Inner" } });
    await ok("POST /api/v1/auth/change-password", { cookie, body: { currentPassword: "long enough pw", newPassword: "another long pw" } });
    const token = await ok("POST /api/v1/auth/tokens", { cookie, body: { name: "ci" } }, 201);
    await ok("GET /api/v1/auth/tokens", { cookie });
    await ok("GET /api/v1/auth/tokens/{id}", { cookie, params: { id: token.id } });
    await ok("PATCH /api/v1/auth/tokens/{id}", { cookie, params: { id: token.id }, body: { name: "ci-2" } });
    await ok("DELETE /api/v1/auth/tokens/{id}", { cookie, params: { id: token.id } });
    const delegated = await ok("POST /api/v1/auth/delegated-credentials", { cookie: owner.cookie, body: { name: "d", namespace: NS } }, 201);
    await ok("GET /api/v1/auth/delegated-credentials", { cookie: owner.cookie });
    await ok("GET /api/v1/auth/delegated-credentials/{id}", { cookie: owner.cookie, params: { id: delegated.id } });
    await ok("POST /api/v1/auth/delegated-credentials/{id}/rotate", { cookie: owner.cookie, params: { id: delegated.id } });
    await ok("DELETE /api/v1/auth/delegated-credentials/{id}", { cookie: owner.cookie, params: { id: delegated.id } });
    await ok("GET /api/v1/auth/providers", { cookie: undefined });
    await ok("POST /api/v1/auth/logout", { cookie });
  });

  it("e-mail flows against a real SMTP server", async () => {
    await ok("GET /api/v1/admin/email/config", {});
    await ok("PUT /api/v1/admin/email/config", { body: { host: sink.host, port: sink.port, secure: false, from: "Polymock <noreply@example.test>" } });
    await ok("POST /api/v1/admin/email/ping", {});
    await ok("POST /api/v1/admin/email/test", { body: { to: "someone@example.test" } });
    await ok("POST /api/v1/auth/forgot-password", { cookie: undefined, body: { email: "owner@example.test" } }, 202);
    const reset = `reset${randomUUID().replaceAll("-", "")}`;
    await db().oneTimeToken.create({ data: { kind: "password_reset", userId: owner.id, email: "owner@example.test", tokenHash: sha256(reset), expiresAt: new Date(Date.now() + 600_000) } });
    await ok("POST /api/v1/auth/reset-password", { cookie: undefined, body: { token: reset, newPassword: "brand new password" } });
    owner.cookie = await sessionCookie(owner.id); // the reset ended the owner's sessions
    await ok("POST /api/v1/auth/verify-email", { cookie: owner.cookie }, 202);
    const verify = `verify${randomUUID().replaceAll("-", "")}`;
    await db().oneTimeToken.create({ data: { kind: "email_verify", userId: owner.id, email: "owner@example.test", tokenHash: sha256(verify), expiresAt: new Date(Date.now() + 600_000) } });
    await ok("GET /api/v1/auth/verify-email", { cookie: undefined, query: `token=${verify}` });
  });

  it("namespaces, members, users, providers, integrations, audit", async () => {
    await ok("POST /api/v1/namespaces", { body: { name: "made-here", description: "a namespace" } }, 201);
    await ok("GET /api/v1/namespaces", {});
    await ok("GET /api/v1/admin/namespaces", {});
    const member = await makeUser({ username: "member-one" });
    await ok("POST /api/v1/admin/namespaces/{namespace}/users", { params: { namespace: "made-here" }, body: { userId: member.user.id, role: "viewer" } }, 201);
    await ok("GET /api/v1/admin/namespaces/{namespace}/users", { params: { namespace: "made-here" } });
    await ok("PUT /api/v1/admin/namespaces/{namespace}/users/{user_id}/role", { params: { namespace: "made-here", user_id: member.user.id }, body: { role: "editor" } });
    await ok("DELETE /api/v1/admin/namespaces/{namespace}/users/{user_id}", { params: { namespace: "made-here", user_id: member.user.id } });
    await ok("DELETE /api/v1/admin/namespaces/{namespace}", { params: { namespace: "made-here" } });
    await ok("POST /api/v1/admin/namespaces/{namespace}/restore", { params: { namespace: "made-here" } });
    await ok("POST /api/v1/members", { cookie: owner.cookie, body: { userId: member.user.id, role: "viewer" } }, 201);
    await ok("GET /api/v1/members", { cookie: owner.cookie });
    await ok("PUT /api/v1/members/{user_id}", { cookie: owner.cookie, params: { user_id: member.user.id }, body: { role: "editor" } });
    await ok("DELETE /api/v1/members/{user_id}", { cookie: owner.cookie, params: { user_id: member.user.id } });
    const user = await ok("POST /api/v1/admin/users", { body: { username: "made-user", password: "long enough pw" } }, 201);
    await ok("GET /api/v1/admin/users", {});
    await ok("PUT /api/v1/admin/users/{id}", { params: { id: user.id }, body: { fullName: "Made User" } });
    await ok("PUT /api/v1/admin/users/{id}/password", { params: { id: user.id }, body: { password: "another long pw" } });
    await ok("POST /api/v1/admin/users/{id}/disable", { params: { id: user.id } });
    await ok("POST /api/v1/admin/users/{id}/enable", { params: { id: user.id } });
    await ok("DELETE /api/v1/admin/users/{id}", { params: { id: user.id } });
    const provider = await ok("POST /api/v1/admin/auth/providers", { body: { type: "oidc", slug: "corp", name: "Corp", config: { issuer: "https://sso.example.com", clientId: "pm" }, clientSecret: "s" } }, 201);
    await ok("GET /api/v1/admin/auth/providers", {});
    await ok("PUT /api/v1/admin/auth/providers/{id}", { params: { id: provider.id }, body: { name: "Corp SSO" } });
    await ok("DELETE /api/v1/admin/auth/providers/{id}", { params: { id: provider.id } });
    await ok("POST /api/v1/admin/auth/ldap/test-connection", { body: { config: { url: "ldap://127.0.0.1:9", baseDn: "dc=example,dc=org" } } });
    await ok("GET /api/v1/integrations", {});
    const integration = await ok("POST /api/v1/integrations", { body: { name: "runner" } }, 201);
    await ok("POST /api/v1/integrations/namespace/{ns}", { cookie: owner.cookie, params: { ns: NS }, body: { name: "ci" } }, 201);
    await ok("POST /api/v1/integrations/{id}/rotate", { params: { id: integration.id } });
    await ok("POST /api/v1/integrations/{id}/revoke", { params: { id: integration.id } });
    await ok("DELETE /api/v1/integrations/{id}", { params: { id: integration.id } });
    await ok("GET /api/v1/admin/audit", {});
    for (const format of ["json", "csv", "syslog", "cef"]) await ok("GET /api/v1/admin/audit/export", { query: `format=${format}` });
    await ok("GET /api/v1/events", {});
  });

  it("mocks, folders, tags, stores, files, undefined requests", async () => {
    const folder = await ok("POST /api/v1/mock-folders", { body: { name: "payments" } }, 201);
    await ok("GET /api/v1/mock-folders", {});
    await ok("PUT /api/v1/mock-folders/{id}", { params: { id: folder.id }, body: { name: "billing" } });
    await ok("PATCH /api/v1/mock-folders/{id}/move", { params: { id: folder.id }, body: { position: 0 } });
    await ok("POST /api/v1/tags", { body: { name: "team-x", color: "#123456" } }, 201);
    await ok("GET /api/v1/tags", {});
    await ok("POST /api/v1/mocks", { body: { id: "m-one", http: { route: "/users/:id", httpMethod: "GET" }, chainId: "chain-1", response: { statusCode: 200, payload: { ok: true } } } });
    await ok("GET /api/v1/mocks", {});
    await ok("GET /api/v1/mocks/{id}", { params: { id: "m-one" } });
    await ok("PATCH /api/v1/mocks/{id}", { params: { id: "m-one" }, body: { tags: ["team-x"] } });
    await ok("GET /api/v1/mocks/{id}/versions", { params: { id: "m-one" } });
    await ok("GET /api/v1/mocks/{id}/versions/{version}", { params: { id: "m-one", version: "1" } });
    await ok("POST /api/v1/mocks/{id}/versions/{version}/restore", { params: { id: "m-one", version: "1" } });
    await ok("GET /api/v1/mocks/{id}/logs", { params: { id: "m-one" } });
    await ok("GET /api/v1/mocks/preview", { query: `namespace=${NS}&method=GET&path=/users/7` });
    await ok("POST /api/v1/mocks/preview", { body: { method: "GET", path: "/nothing-here" } });
    await ok("POST /api/v1/mocks/batch", { body: [{ id: "m-two", http: { route: "/two" } }, { id: "m-three", http: { route: "/three" } }] });
    await ok("PATCH /api/v1/mocks/batch/tags", { body: { ids: ["m-two"], addTags: ["team-x"] } });
    await ok("PATCH /api/v1/mocks/batch/move", { body: { ids: ["m-two"], folderId: folder.id } });
    await ok("DELETE /api/v1/mocks/batch", { body: { ids: ["m-two"] } });
    await ok("POST /api/v1/mocks/batch/restore", { body: { ids: ["m-two"] } });
    await ok("POST /api/v1/mocks/copy-to-namespace", { body: { mockIds: ["m-three"], sourceNamespace: NS, targetNamespace: "sandbox" } });
    await ok("GET /api/v1/mocks/chains/{id}", { params: { id: "chain-1" } });
    await ok("DELETE /api/v1/mocks/{id}", { params: { id: "m-three" } });
    await ok("POST /api/v1/mocks/{id}/restore", { params: { id: "m-three" } });
    await ok("DELETE /api/v1/mocks/{id}/purge", { params: { id: "m-three" } });
    await ok("DELETE /api/v1/mocks/chains/{id}", { params: { id: "chain-1" } });
    await ok("DELETE /api/v1/mock-folders/{id}", { params: { id: folder.id } });

    await ok("POST /api/v1/stores/global", { body: { key: "k", value: { a: 1 } } });
    await ok("GET /api/v1/stores/global", {});
    await ok("DELETE /api/v1/stores/global/{key}", { params: { key: "k" } });
    await ok("POST /api/v1/stores/chain/{id}", { params: { id: "c1" }, body: { key: "k", value: [1, 2] } });
    await ok("GET /api/v1/stores/chain/{id}", { params: { id: "c1" } });
    await ok("DELETE /api/v1/stores/chain/{id}/{key}", { params: { id: "c1", key: "k" } });

    const proto = 'syntax = "proto3";\npackage api;\nservice Echo { rpc Say(Msg) returns (Msg); }\nmessage Msg { string text = 1; }\n';
    const imported = await ok("POST /api/v1/api-tester/import/grpc", { body: { name: "api/echo.proto", content: proto } });
    await ok("GET /api/v1/grpc/protos", {});
    await ok("GET /api/v1/grpc/protos/{id}", { params: { id: imported.protos[0].id } });
    await ok("DELETE /api/v1/grpc/protos/{id}", { params: { id: imported.protos[0].id } });

    const tpl = { headers: { "content-type": "text/plain" }, rawBody: "hello {{name}}" };
    await ok("POST /api/v1/templates/{fileName}", { params: { fileName: "greeting.txt" }, ...tpl }, 201);
    await ok("POST /api/v1/templates/{fileName}", { params: { fileName: "greeting.txt" }, ...tpl }, 200);
    await ok("GET /api/v1/templates", {});
    await ok("GET /api/v1/templates/{fileName}", { params: { fileName: "greeting.txt" } });
    await ok("DELETE /api/v1/templates/{fileName}", { params: { fileName: "greeting.txt" } });
    const file = await ok("POST /api/v1/temp-files", { headers: { "content-type": "text/csv", "x-file-name": "a.csv" }, rawBody: "a,b\n1,2\n" }, 201);
    await ok("GET /api/v1/temp-files/{fileId}", { params: { fileId: file.id } });
    await ok("DELETE /api/v1/temp-files/{fileId}", { params: { fileId: file.id } });

    const nsRow = await db().namespace.findUniqueOrThrow({ where: { name: NS } });
    const undef = () =>
      db().undefinedRequest.create({
        data: { namespaceId: nsRow.id, protocol: "http", method: "GET", path: `/missing/${randomUUID()}`, signature: randomUUID(), query: {}, headers: {}, body: null as never, count: 1 },
      });
    const u1 = await undef();
    await ok("GET /api/v1/undefined-requests", {});
    await ok("PATCH /api/v1/undefined-requests/{id}/ignore", { params: { id: u1.id }, body: {} });
    await ok("POST /api/v1/undefined-requests/{id}/create-mock", { params: { id: u1.id }, body: {} });
    const u2 = await undef();
    await ok("DELETE /api/v1/undefined-requests", { body: { ids: [u2.id] } });
    await undef();
    await ok("DELETE /api/v1/undefined-requests/all", {});
  });

  it("protocol servers", async () => {
    const server = await ok("POST /api/v1/protocol-servers", { body: { name: "orders-tcp", protocol: "tcp", port: 1, options: { framing: "newline" }, credentials: { username: "u", password: "p" } } }, 201);
    await ok("GET /api/v1/protocol-servers", {});
    await ok("GET /api/v1/protocol-servers/{id}", { params: { id: server.id } });
    await ok("PUT /api/v1/protocol-servers/{id}", { params: { id: server.id }, body: { options: { framing: "raw", idleMs: 50 } } });
    await ok("POST /api/v1/protocol-servers/{id}/test", { params: { id: server.id } });
    await ok("DELETE /api/v1/protocol-servers/{id}", { params: { id: server.id } });
    const off = await ok("GET /api/v1/plugin-protocols", {});
    expect(off).toEqual({ enabled: false, protocols: [] });
    process.env.SERVICE_UNIFIED_PORT = "1";
    resetEnvCache();
    try {
      const on = await ok("GET /api/v1/plugin-protocols", {});
      expect(on.protocols.map((p: { serverName: string }) => p.serverName)).toEqual(["plugin:resp", "plugin:line"]);
    } finally {
      delete process.env.SERVICE_UNIFIED_PORT;
      resetEnvCache();
    }
  });

  it("generators", async () => {
    const document = { openapi: "3.0.3", info: { title: "Contract", version: "1" }, paths: { "/a": { get: { responses: { 200: { description: "ok", content: { "application/json": { example: { a: 1 } } } } } } } } };
    await ok("POST /api/v1/generators/openapi/preview", { body: { document } });
    await ok("POST /api/v1/generators/openapi", { body: { document } });
    await ok("POST /api/v1/generators/graphql/preview", { body: { document: "type Query { hello: String }" } });
    await ok("POST /api/v1/generators/graphql", { body: { document: "type Query { hello: String }" } });
    const wsdl = '<definitions name="Ping" targetNamespace="urn:ping" xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tns="urn:ping" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><message name="In"><part name="a" type="xsd:string"/></message><portType name="P"><operation name="ping"><input message="tns:In"/><output message="tns:In"/></operation></portType><binding name="B" type="tns:P"><soap:binding style="rpc"/><operation name="ping"><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding><service name="Ping"><port name="P" binding="tns:B"><soap:address location="http://localhost/ping"/></port></service></definitions>';
    await ok("POST /api/v1/generators/soap/preview", { body: { document: wsdl } });
    await ok("POST /api/v1/generators/soap", { body: { document: wsdl } });
    const proto = 'syntax = "proto3";\npackage hello;\nservice Greeter { rpc Hi(Msg) returns (Msg); }\nmessage Msg { string text = 1; }\n';
    await ok("POST /api/v1/generators/grpc/preview", { body: { document: proto } });
    await ok("POST /api/v1/generators/grpc", { body: { document: { files: [{ name: "hello/greeter.proto", content: proto }] } } });
    const har = { log: { version: "1.2", creator: { name: "test", version: "1" }, entries: [{ request: { method: "GET", url: "https://api.test/a?x=1", headers: [] }, response: { status: 200, headers: [{ name: "Content-Type", value: "application/json" }], content: { mimeType: "application/json", text: '{"a":1}' } } }] } };
    await ok("POST /api/v1/generators/har/preview", { body: { document: har } });
    await ok("POST /api/v1/generators/har", { body: { document: har } });
    const sockets = { events: [{ serverName: "chat", event: "ping", reply: "pong" }] };
    await ok("POST /api/v1/generators/socket/preview", { body: { document: sockets } });
    await ok("POST /api/v1/generators/socket", { body: { document: sockets } });
    await ok("POST /api/v1/generators/mcp/preview", { body: { document: { tools: [{ name: "hello", inputSchema: { type: "object" } }] } } });
    await ok("POST /api/v1/generators/mcp", { body: { document: { tools: [{ name: "hello", inputSchema: { type: "object" } }] } } });
    const asyncapi = { asyncapi: "3.0.0", info: { title: "Events", version: "1" }, servers: { n: { host: "localhost:4222", protocol: "nats" } }, channels: { c: { address: "ping" } }, operations: { ping: { action: "receive", channel: { $ref: "#/channels/c" } } } };
    await ok("POST /api/v1/generators/asyncapi/preview", { body: { document: asyncapi } });
    await ok("POST /api/v1/generators/asyncapi", { body: { document: asyncapi } });
    await ok("POST /api/v1/generators/spec", { body: { format: "openapi" } });
  });

  it("message broker admin against the real RabbitMQ and the kcat Kafka mock cluster", async () => {
    kafkaCluster = await startKafkaMockCluster();
    const rmq = { cookie: admin.cookie, query: `namespace=${NS}` };
    await expectAnswer("POST /api/v1/protocol-servers", { ...rmq, body: { name: "admin-rmq", protocol: "rabbitmq", url: "amqp://guest:guest@127.0.0.1:5672" } }, 201);
    await expectAnswer("POST /api/v1/protocol-servers", { ...rmq, body: { name: "admin-kafka", protocol: "kafka", brokers: [kafkaCluster.brokers] } }, 201);
    const queue = `openapi-${randomUUID().slice(0, 8)}`;
    const r = { serverName: "admin-rmq" };
    await ok("POST /api/v1/api-tester/rabbitmq/metadata", { body: r });
    await ok("POST /api/v1/api-tester/rabbitmq/queues/create", { body: { ...r, queue, durable: false } }, 201);
    await ok("POST /api/v1/api-tester/rabbitmq/queues", { body: { ...r, names: [queue] } });
    await ok("POST /api/v1/api-tester/rabbitmq/publish", { body: { ...r, routingKey: queue, body: "hello", properties: { contentType: "text/plain" } } });
    await ok("POST /api/v1/api-tester/rabbitmq/read", { body: { ...r, queue, count: 1 } });
    await ok("POST /api/v1/api-tester/rabbitmq/queues/purge", { body: { ...r, queue } });
    await ok("POST /api/v1/api-tester/rabbitmq/exchanges/create", { body: { ...r, exchange: `${queue}-x`, type: "topic", durable: false } }, 201);
    await ok("POST /api/v1/api-tester/rabbitmq/exchanges", { body: r });
    await ok("POST /api/v1/api-tester/rabbitmq/exchanges/delete", { body: { ...r, exchange: `${queue}-x` } });
    await ok("POST /api/v1/api-tester/rabbitmq/queues/delete", { body: { ...r, queue } });
    const k = { serverName: "admin-kafka" };
    await ok("POST /api/v1/api-tester/kafka/metadata", { body: k });
    await ok("POST /api/v1/api-tester/kafka/publish", { body: { ...k, topic: "openapi-topic", value: "v", key: "k", partition: 0 } });
    await ok("POST /api/v1/api-tester/kafka/topics", { body: k });
    await ok("POST /api/v1/api-tester/kafka/read", { body: { ...k, topic: "openapi-topic", limit: 1 } });
    await ok("POST /api/v1/api-tester/kafka/consumer-groups", { body: { ...k, groups: ["nobody"] } });
    // Not answerable by the mock cluster (NOT_EXERCISED); its request still serves the error cases below.
    for (const [key, body] of [["POST /api/v1/api-tester/kafka/topics/create", { ...k, topic: "made" }], ["POST /api/v1/api-tester/kafka/topics/delete", { ...k, topic: "openapi-topic" }]] as const) {
      successes.set(key, { cookie: admin.cookie, query: `namespace=${NS}`, body });
      await expectAnswer(key, successes.get(key)!, 502);
    }
  });

  it("API tester data: collections, folders, requests, environments, history, test runs", async () => {
    const t = "/api/v1/api-tester";
    const c = await ok(`POST ${t}/collections`, { body: { name: "Docs", variables: [{ key: "token", value: "t0ken", secret: true }] } }, 201);
    await ok(`GET ${t}/collections`, { query: `namespace=${NS}&q=doc&trashed=false` });
    await ok(`GET ${t}/collections/{id}`, { params: { id: c.id } });
    await ok(`PUT ${t}/collections/{id}`, { params: { id: c.id }, body: { description: "documented", scripts: { test: "pm.test('x', () => {})" } } });
    const folder = await ok(`POST ${t}/collections/{id}/folders`, { params: { id: c.id }, body: { name: "Folder" } }, 201);
    await ok(`PUT ${t}/folders/{id}`, { params: { id: folder.id }, body: { name: "Folder 2", sortIndex: 0 } });
    const inFolder = await ok(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "In folder", url: "https://example.test/a", folderId: folder.id, headers: { Accept: "*/*" } } }, 201);
    const atRoot = await ok(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "At root", kind: "soap", method: "POST", url: "https://example.test/soap", soap: { action: "urn:x" } } }, 201);
    await ok(`GET ${t}/collections/{id}/requests`, { params: { id: c.id } });
    await ok(`POST ${t}/collections/{id}/requests/reorder`, { params: { id: c.id }, body: { ids: [atRoot.id] } });
    await ok(`GET ${t}/requests/{id}`, { params: { id: inFolder.id } });
    await ok(`PUT ${t}/requests/{id}`, { params: { id: inFolder.id }, body: { method: "POST", body: { mode: "raw", raw: "{}", language: "json" } } });
    await ok(`PATCH ${t}/requests/batch/move`, { body: { ids: [atRoot.id], collectionId: c.id, folderId: folder.id } });
    await ok(`GET ${t}/collections/{id}/export`, { params: { id: c.id } });
    const copy = await ok(`POST ${t}/collections/{id}/duplicate`, { params: { id: c.id } }, 201);
    // Sharing: with a member of the namespace, into another namespace; then undone.
    await ok(`POST ${t}/collections/{id}/sharing/users`, { params: { id: c.id }, body: { users: [{ userId: owner.id, role: "editor" }] } });
    await ok(`POST ${t}/collections/{id}/sharing/spaces`, { params: { id: c.id }, body: { namespaces: ["sandbox"] } });
    await ok(`GET ${t}/collections/{id}/users`, { params: { id: c.id } });
    await ok(`GET ${t}/collections/{id}/spaces`, { params: { id: c.id } });
    await ok(`PUT ${t}/collections/{id}/users/{userId}/role`, { params: { id: c.id, userId: owner.id }, body: { role: "viewer" } });
    await ok(`DELETE ${t}/collections/{id}/users/{userId}`, { params: { id: c.id, userId: owner.id } });
    await ok(`DELETE ${t}/collections/{id}/spaces/{namespace}`, { params: { id: c.id, namespace: "sandbox" } });
    await ok(`GET ${t}/users/search`, { query: `namespace=${NS}&q=owner&limit=5` });
    await ok("POST /api/v1/users/lookup", { query: `namespace=${NS}`, body: { userIds: [owner.id, randomUUID()] } });
    await ok(`DELETE ${t}/requests/{id}`, { params: { id: inFolder.id } });
    await ok(`DELETE ${t}/requests/batch`, { body: { ids: [atRoot.id] } });
    await ok(`DELETE ${t}/folders/{id}`, { params: { id: folder.id } });
    await ok(`DELETE ${t}/collections/{id}`, { params: { id: copy.id } });
    await ok(`POST ${t}/collections/{id}/restore`, { params: { id: copy.id } });
    await ok(`DELETE ${t}/collections/batch`, { body: { ids: [copy.id] } });

    const env = await ok(`POST ${t}/environments`, { body: { name: "Staging", variables: { base: "https://example.test", key: "s3cret" }, secrets: ["key"] } }, 201);
    await ok(`GET ${t}/environments`, {});
    await ok(`GET ${t}/environments/{id}`, { params: { id: env.id } });
    await ok(`PUT ${t}/environments/{id}`, { params: { id: env.id }, body: { variables: env.variables, secrets: env.secrets, name: "Staging 2" } });
    await ok(`POST ${t}/environments/{id}/activate`, { params: { id: env.id } });
    await ok(`GET ${t}/environments/active`, {});
    await ok(`DELETE ${t}/environments/active`, {});
    await ok(`DELETE ${t}/environments/{id}`, { params: { id: env.id } });

    const adminActor = actorFor(await db().user.findUniqueOrThrow({ where: { id: admin.id } }));
    const scope = await resolveNamespace(adminActor, NS);
    const timings = { dnsMs: 0, connectMs: 1, tlsMs: 0, firstByteMs: 2, downloadMs: 1, totalMs: 4 };
    await recordHistory(adminActor, scope, {
      collectionId: c.id,
      sent: { method: "GET", url: "https://example.test/a?key=s3cret", headers: [{ key: "x", value: "y" }], body: "s3cret", bodyEncoding: "utf8" },
      response: { status: 200, statusText: "OK", headers: [{ key: "a", value: "b" }], body: "{}", bodyEncoding: "utf8", bodyTruncated: false, size: { headers: 10, body: 2 }, cookies: [], timings, url: "https://example.test/a", redirects: [], httpVersion: "1.1" },
      verdict: { test: { status: "passed", success: true, totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0, tests: [], logs: [], durationMs: 1 } },
      secretValues: ["s3cret"],
    });
    await ok(`GET ${t}/requests/history`, {});

    const run = await createTestRun(scope, { name: "Documented run", collectionIds: [c.id], status: "running" });
    await appendRunResults(run.id, [
      { iteration: 0, collectionId: c.id, requestId: null, name: "R", path: ["Folder"], method: "GET", url: "https://example.test", status: "error", responseCode: null, responseTimeMs: null, responseSize: null, tests: [], logs: [{ level: "error", message: "x", at: 0 }], error: "refused", scriptError: { message: "m", kind: "syntax" }, startedAt: new Date().toISOString() },
    ]);
    await ok("GET /api/v1/test-runs/active", {});
    await finishTestRun(run.id, "failed", { requests: 1, passedRequests: 0, failedRequests: 1, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 }, "a request failed");
    await ok(`GET ${t}/test-runs`, { query: `namespace=${NS}&mode=functional` });
    await ok(`GET ${t}/test-runs/{id}`, { params: { id: run.id } });
    await ok(`GET ${t}/test-reports/{id}`, { params: { id: run.id } });
    await ok(`DELETE ${t}/test-runs/{id}`, { params: { id: run.id } });
  });

  it("API tester execution: send, scripts, the browser split, collection runs, cancel, reports", async () => {
    const t = "/api/v1/api-tester";
    const target = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/x`;
    try {
      const c = await ok(`POST ${t}/collections`, { body: { name: "Executed" } }, 201);
      const r = await ok(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "R", url, scripts: { test: "pm.test('ok', () => pm.response.to.have.status(200)); console.log('hi')" } } }, 201);
      await ok(`POST ${t}/requests/execute`, { body: { requestId: r.id, environmentId: null } });
      await ok(`POST ${t}/requests/execute-with-scripts`, { body: { requestId: r.id, environmentId: null } });
      const pre = await ok(`POST ${t}/requests/execute-client`, { body: { executionMode: "client", requestId: r.id, environmentId: null } });
      await ok(`POST ${t}/requests/execute-client`, { body: { executionMode: "client", stage: "test", requestId: r.id, scriptState: pre.scriptState, responseData: { status: 200, headers: [], body: "{}" } } });
      await ok(`POST ${t}/scripts/execute`, { body: { scriptType: "test", script: "pm.test('x', () => {})", response: { status: 200, headers: [], body: "" }, environmentId: null } });
      const run = await ok(`POST ${t}/collections/{id}/execute`, { params: { id: c.id }, body: { environmentId: null } });
      await ok(`POST ${t}/collections/execute-multiple`, { body: { collectionIds: [c.id], environmentId: null } });
      for (const format of ["junit", "html", "json"]) await ok(`GET ${t}/test-runs/{id}/export`, { params: { id: run.id }, query: `namespace=${NS}&format=${format}` });
      await ok(`POST ${t}/reports/import`, { body: { data: (await send(`GET ${t}/test-runs/{id}/export`, { cookie: admin.cookie, params: { id: run.id }, query: `namespace=${NS}&format=json` })).text } }, 201);
      // Cancel: a running run gets the flag (the executor is elsewhere here), an ended one is 409.
      const scope = await resolveNamespace(actorFor(await db().user.findUniqueOrThrow({ where: { id: admin.id } })), NS);
      const running = await createTestRun(scope, { name: "Cancellable", status: "running" });
      await ok(`POST ${t}/test-runs/{id}/cancel`, { params: { id: running.id } });
      await finishTestRun(running.id, "cancelled", { requests: 0, passedRequests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 });
      await expectAnswer(`POST ${t}/test-runs/{id}/cancel`, { cookie: admin.cookie, query: `namespace=${NS}`, params: { id: running.id } }, 409);
    } finally {
      target.close();
    }
  });

  it("API tester mocks from traffic", async () => {
    const t = "/api/v1/api-tester";
    const target = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/traffic/one`;
    try {
      const c = await ok(`POST ${t}/collections`, { body: { name: "Traffic" } }, 201);
      await ok(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "One", url } }, 201);
      await ok(`POST ${t}/mocks-from-collection`, { body: { collectionId: c.id, execute: true, environmentId: null } }, 201);
      const fromResponse = { request: { method: "GET", url: `${url}?from=response` }, response: { status: 200, headers: [], body: "{}" }, matchQuery: true };
      await ok(`POST ${t}/mock-from-response`, { body: fromResponse }, 201);
      // The same mock again: its id is taken.
      await expectAnswer(`POST ${t}/mock-from-response`, { cookie: admin.cookie, query: `namespace=${NS}`, body: fromResponse }, 409);
    } finally {
      target.close();
    }
  });

  it("API tester protocol helpers against real peers", async () => {
    const t = "/api/v1/api-tester";
    const schema = buildSchema("type Query { hello: String }");
    const peer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", async () => {
        const text = Buffer.concat(chunks).toString();
        if (req.url === "/mcp") {
          const server = new McpServer({ name: "Peer", version: "1.0.0" });
          server.registerTool("echo", { description: "Echo", inputSchema: { text: z.string() } }, async ({ text: said }) => ({ content: [{ type: "text", text: said }] }));
          const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
          res.on("close", () => void transport.close().then(() => server.close()));
          await server.connect(transport);
          // The client also sends GET (event stream) and DELETE (end of session) without a body.
          return void transport.handleRequest(req, res, text ? JSON.parse(text) : undefined);
        }
        if (req.url === "/graphql") {
          const { query } = JSON.parse(text);
          return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(await graphql({ schema, source: query })));
        }
        if (req.url === "/soap") return void res.writeHead(200, { "content-type": "text/xml" }).end('<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Pong>ok</Pong></soap:Body></soap:Envelope>');
        res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => peer.listen(0, "127.0.0.1", r));
    const base = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-grpc-"));
    writeFileSync(path.join(dir, "ping.proto"), 'syntax = "proto3";\npackage peer;\nservice Ping { rpc Say(Msg) returns (Msg); }\nmessage Msg { string text = 1; }\n');
    const pkg = protoLoader.loadSync(path.join(dir, "ping.proto"), { keepCase: true, includeDirs: [dir] });
    const grpcServer = new grpc.Server();
    grpcServer.addService(((grpc.loadPackageDefinition(pkg).peer as grpc.GrpcObject).Ping as grpc.ServiceClientConstructor).service, {
      Say: (c: grpc.ServerUnaryCall<{ text: string }, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(null, { text: c.request.text }),
    });
    new ReflectionService(pkg).addToServer(grpcServer);
    const grpcPort = await new Promise<number>((resolve, reject) => grpcServer.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    try {
      await ok("POST /api/v1/proxy/http", { body: { url: `${base}/http` } });
      await ok("POST /api/v1/proxy/soap", { body: { url: `${base}/soap`, envelope: '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Ping/></soap:Body></soap:Envelope>' } });
      await ok(`POST ${t}/soap/operations`, { body: { wsdl: generatorFixture("library.wsdl") } });
      await ok(`POST ${t}/graphql/introspect`, { body: { url: `${base}/graphql` } });
      await ok(`POST ${t}/grpc/discover`, { body: { target: `127.0.0.1:${grpcPort}` } });
      await ok("POST /api/v1/proxy/grpc", { body: { target: `127.0.0.1:${grpcPort}`, service: "peer.Ping", method: "Say", message: { text: "hi" } } });
      await ok(`POST ${t}/mcp/connect`, { body: { url: `${base}/mcp` } });
      await ok(`POST ${t}/mcp/tools/list`, { body: { url: `${base}/mcp` } });
      await ok(`POST ${t}/mcp/tools/call`, { body: { url: `${base}/mcp`, name: "echo", arguments: { text: "hi" } } });
      await ok(`POST ${t}/mcp/resources/list`, { body: { url: `${base}/mcp` } });
    } finally {
      peer.close();
      grpcServer.forceShutdown();
    }
  });

  it("API tester standalone tests and schedules", async () => {
    const t = "/api/v1/api-tester";
    const target = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/x`;
    try {
      const c = await ok(`POST ${t}/collections`, { body: { name: "Scheduled" } }, 201);
      await ok(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "R", url } }, 201);
      const test = await ok(`POST ${t}/tests`, { body: { name: "Saved test", collectionIds: [c.id] } }, 201);
      await ok(`GET ${t}/tests`, { query: `namespace=${NS}&search=saved` });
      await ok(`GET ${t}/tests/{id}`, { params: { id: test.id } });
      await ok(`PUT ${t}/tests/{id}`, { params: { id: test.id }, body: { description: "d" } });
      await ok(`POST ${t}/tests/{id}/run`, { params: { id: test.id }, body: {} });
      await ok(`POST ${t}/tests/run`, { body: { collectionIds: [c.id] } });
      await ok(`DELETE ${t}/tests/{id}`, { params: { id: test.id } });
      const schedule = await ok(`POST ${t}/schedules`, { body: { name: "Nightly", cron: "0 2 * * *", timezone: "Europe/Berlin", collectionIds: [c.id] } }, 201);
      await ok(`GET ${t}/schedules`, {});
      await ok(`GET ${t}/schedules/{id}`, { params: { id: schedule.id } });
      await ok(`PUT ${t}/schedules/{id}`, { params: { id: schedule.id }, body: { enabled: false } });
      await ok(`POST ${t}/schedules/{id}/run`, { params: { id: schedule.id }, body: {} });
      await ok(`DELETE ${t}/schedules/{id}`, { params: { id: schedule.id } });
    } finally {
      target.close();
    }
  });

  it("API tester imports from specs, SoapUI and JMeter", async () => {
    const imp = "POST /api/v1/api-tester/import";
    await ok(`${imp}/openapi`, { body: { data: generatorFixture("petstore-3.0.yaml") } });
    await ok(`${imp}/wsdl`, { body: { data: generatorFixture("library.wsdl") } });
    await ok(`${imp}/graphql`, { body: { data: generatorFixture("bookstore.graphql") } });
    await ok(`${imp}/mcp`, { body: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } });
    await ok(`${imp}/har`, { body: { data: generatorFixture("tasks-api.har") } });
    await ok(`${imp}/soapui`, { body: { data: importFixture("Sample-REST-Project-soapui-project.xml") } });
    await ok(`${imp}/jmx`, { body: { data: importFixture("build-webservice-test-plan.jmx") } });
    await ok(`${imp}/mockarty`, { body: { format: "polymock-collection", version: 1, collection: { name: "Native" }, items: [{ type: "request", name: "R", request: { method: "GET", url: "https://example.test/" } }] } });
    await ok(`${imp}/postman`, { body: { info: { name: "From Postman", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" }, item: [{ name: "R", request: { method: "GET", url: "https://example.test/" } }] } });
    await ok(`${imp}/postman-env`, { body: { name: "Env", values: [{ key: "baseUrl", value: "https://example.test", enabled: true }] } });
  });

  it("runner agents and runner tasks", async () => {
    const ownerUser = await db().user.findUniqueOrThrow({ where: { id: owner.id } });
    const { token } = await createNamespaceIntegration(actorFor(ownerUser), NS, { name: "openapi-runner", permissions: ["read", "write"] });
    const agent = { cookie: undefined, token };
    const runner = await ok("POST /api/v1/runners/register", { ...agent, body: { name: "openapi-runner", capacityVus: 10, labels: ["ci"] } }, 201);
    await ok("POST /api/v1/runners/{id}/heartbeat", { ...agent, params: { id: runner.id }, body: { activeVus: 0 } });
    await expectAnswer("POST /api/v1/runners/register", { ...agent, body: { name: "openapi-runner", capacityVus: 10 } }, 409);
    await ok("GET /api/v1/runners", {});
    await ok("GET /api/v1/integrations/status", {});
    const nsRow = await db().namespace.findUniqueOrThrow({ where: { name: NS } });
    const config = await db().perfConfig.create({ data: { namespaceId: nsRow.id, name: "Smoke", script: "import http from 'k6/http';\nexport default function () {}", options: { vus: 1, iterations: 1 } } });
    const task = await ok("POST /api/v1/runner-tasks", { body: { type: "performance", configId: config.id } }, 202);
    await ok("GET /api/v1/runner-tasks", {});
    await ok("GET /api/v1/runner-tasks/{id}", { params: { id: task.id } });
    await ok("GET /api/v1/runner-tasks/{id}/queue-position", { params: { id: task.id } });
    const { part } = await ok("POST /api/v1/runners/{id}/claim", { ...agent, params: { id: runner.id }, body: { waitSeconds: 0, freeVus: 10 } });
    const partParams = { id: runner.id, partId: part.partId };
    await ok("POST /api/v1/runners/{id}/parts/{partId}/progress", { ...agent, params: partParams, body: { seq: 1, points: [] } });
    await ok("POST /api/v1/runners/{id}/parts/{partId}/finish", { ...agent, params: partParams, body: { status: "error", reason: "finished by hand" } });
    await c409("DELETE /api/v1/runner-tasks/{id}", { params: { id: task.id } });
    const queued = await expectAnswer("POST /api/v1/runner-tasks", { cookie: admin.cookie, query: `namespace=${NS}`, body: { configId: config.id } }, 202);
    await ok("DELETE /api/v1/runner-tasks/{id}", { params: { id: queued.id } });
    // Offline again: the load runs of the tests after this one stay in the web process.
    await expectAnswer("POST /api/v1/runners/{id}/heartbeat", { ...agent, params: { id: runner.id }, body: { activeVus: 0, status: "offline" } }, 200);
  });

  it("performance scripts: from a configuration, an API tester request and a HAR; snippets", async () => {
    const t = "/api/v1/api-tester";
    const made = (key: string, r: Req, status = 201) => expectAnswer(key, { cookie: admin.cookie, query: `namespace=${NS}`, ...r }, status);
    const c = await made(`POST ${t}/collections`, { body: { name: "Load tested", variables: [{ key: "base", value: "https://example.test" }] } });
    const request = await made(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "R", url: "{{base}}/x" } });
    await ok("POST /api/v1/perf/scripts", { body: { name: "Smoke", options: { vus: 2, duration: "10s" }, requests: [{ url: "https://example.test/", checks: { status: 200 } }] } });
    await ok("POST /api/v1/perf/scripts/from-request", { body: { requestId: request.id, perfOptions: { vus: 1, iterations: 1 } } });
    await ok("POST /api/v1/perf/scripts/from-har", { body: { har: generatorFixture("tasks-api.har") } });
    await ok("GET /api/v1/perf/snippets", {});
    const trashed = await made(`POST ${t}/collections`, { body: { name: "Trashed load" } });
    const inTrash = await made(`POST ${t}/collections/{id}/requests`, { params: { id: trashed.id }, body: { name: "R", url: "https://example.test/y" } });
    await made(`DELETE ${t}/collections/{id}`, { params: { id: trashed.id } }, 200);
    await c409("POST /api/v1/perf/scripts/from-request", { body: { requestId: inTrash.id } });
  });

  it("performance: saved load tests, runs, stop, results, compare, history, trend, groups, schedules", async () => {
    const target = http.createServer((req, res) => {
      req.resume();
      res.end("ok");
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const BASE = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const script = "import http from 'k6/http';\nimport { check, sleep } from 'k6';\nexport const options = { iterations: 3, thresholds: { http_req_duration: ['p(95)<5000'] } };\nexport default function () { check(http.get(__ENV.BASE), { 'is 200': (r) => r.status === 200 }); if (__ENV.PAUSE) sleep(0.05); }";
    const ended = async (id: string) => {
      for (let i = 0; i < 300; i++) {
        const r = await db().perfResult.findUniqueOrThrow({ where: { id } });
        if (!["queued", "running"].includes(r.status)) return r;
        await new Promise((res) => setTimeout(res, 100));
      }
      throw new Error(`load run ${id} did not end`);
    };
    try {
      const config = await ok("POST /api/v1/perf-configs", { body: { name: "Checkout load", script, environment: { BASE } } }, 201);
      await ok("GET /api/v1/perf-configs", { query: `namespace=${NS}&search=checkout` });
      await ok("GET /api/v1/perf-configs/{id}", { params: { id: config.id } });
      await ok("PUT /api/v1/perf-configs/{id}", { params: { id: config.id }, body: { description: "the checkout path" } });
      const first = await ok("POST /api/v1/perf-configs/{id}/run", { params: { id: config.id }, body: {} }, 202);
      expect((await ended(first.id)).status).toBe("passed");
      const second = await ok("POST /api/v1/perf/run", { body: { name: "Ad hoc", script, environment: { BASE }, configId: config.id } }, 202);
      expect((await ended(second.id)).status).toBe("passed");
      await ok("GET /api/v1/perf-results", { query: `namespace=${NS}&configId=${config.id}` });
      await ok("GET /api/v1/perf-results/{id}", { params: { id: first.id } });
      await ok("GET /api/v1/perf-results/compare", { query: `namespace=${NS}&ids=${first.id},${second.id}` });
      await ok("GET /api/v1/perf-results/history/{configId}", { params: { configId: config.id } });
      await ok("GET /api/v1/perf-results/trend/{configId}", { params: { configId: config.id } });
      await ok("GET /api/v1/perf-results/group/{runGroupId}", { params: { runGroupId: first.id } });
      const schedule = await ok("POST /api/v1/perf-schedules", { body: { name: "Nightly load", configId: config.id, cron: "0 3 * * *", timezone: "Europe/Berlin" } }, 201);
      await ok("GET /api/v1/perf-schedules", { query: `namespace=${NS}&configId=${config.id}` });
      await ok("GET /api/v1/perf-schedules/{id}", { params: { id: schedule.id } });
      await ok("PUT /api/v1/perf-schedules/{id}", { params: { id: schedule.id }, body: { enabled: false } });
      await ok("DELETE /api/v1/perf-schedules/{id}", { params: { id: schedule.id } });

      // The 409s: a run in progress (not deletable; no second one while PERF_LOCAL_CONCURRENCY is 1), an ended one (not stoppable), a collection in the trash.
      const long = await expectAnswer("POST /api/v1/perf/run", { cookie: admin.cookie, query: `namespace=${NS}`, body: { script, options: { iterations: 100_000, duration: "30s" }, environment: { BASE, PAUSE: "1" } } }, 202);
      // Stopped once its first second is reported (the engine listens for a stop from then on).
      for (let i = 0; i < 100 && !(await db().perfRunPart.findFirst({ where: { resultId: long.id, seq: { gte: 1 } } })); i++) await new Promise((res) => setTimeout(res, 100));
      process.env.PERF_LOCAL_CONCURRENCY = "1";
      try {
        await c409("POST /api/v1/perf/run", { body: { script, environment: { BASE } } });
        await c409("POST /api/v1/perf-configs/{id}/run", { params: { id: config.id }, body: {} });
      } finally {
        delete process.env.PERF_LOCAL_CONCURRENCY;
      }
      await c409("DELETE /api/v1/perf-results/{id}", { params: { id: long.id } });
      await ok("POST /api/v1/perf/stop/{taskId}", { params: { taskId: long.taskId } });
      expect((await ended(long.id)).status).toBe("stopped");
      await c409("POST /api/v1/perf/stop/{taskId}", { params: { taskId: long.taskId } });
      const trashed = await expectAnswer("POST /api/v1/api-tester/collections", { cookie: admin.cookie, query: `namespace=${NS}`, body: { name: "Generated from" } }, 201);
      await expectAnswer("DELETE /api/v1/api-tester/collections/{id}", { cookie: admin.cookie, query: `namespace=${NS}`, params: { id: trashed.id } }, 200);
      await c409("POST /api/v1/perf-configs", { body: { name: "From a trashed collection", script, collectionIds: [trashed.id] } });
      await c409("PUT /api/v1/perf-configs/{id}", { params: { id: config.id }, body: { collectionIds: [trashed.id] } });

      await ok("DELETE /api/v1/perf-results/{id}", { params: { id: second.id } });
      await ok("DELETE /api/v1/perf-configs/{id}", { params: { id: config.id } });
    } finally {
      target.close();
    }
  });

  it("performance: collections as load tests (run-collection, execute-perf)", async () => {
    const target = http.createServer((req, res) => {
      req.resume();
      res.end("ok");
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const t = "/api/v1/api-tester";
    const made = (key: string, r: Req, status = 201) => expectAnswer(key, { cookie: admin.cookie, query: `namespace=${NS}`, ...r }, status);
    try {
      const c = await made(`POST ${t}/collections`, { body: { name: "Loaded", variables: [{ key: "base", value: `http://127.0.0.1:${(target.address() as AddressInfo).port}` }] } });
      await made(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "R", url: "{{base}}/x" } });
      const started = await ok("POST /api/v1/perf/run-collection", { body: { collectionIds: [c.id], perfOptions: { vus: 1, iterations: 2 }, environmentId: null } }, 202);
      for (let i = 0; i < 200 && ["queued", "running"].includes((await db().perfResult.findUniqueOrThrow({ where: { id: started.id } })).status); i++) await new Promise((res) => setTimeout(res, 100));
      const run = await ok(`POST ${t}/collections/execute-perf`, { body: { collectionIds: [c.id], perfOptions: { vus: 1, iterations: 2 }, environmentId: null } });
      expect(run).toMatchObject({ mode: "load", status: "passed" });
      await made(`DELETE ${t}/collections/{id}`, { params: { id: c.id } }, 200);
      await c409("POST /api/v1/perf/run-collection", { body: { collectionIds: [c.id], environmentId: null } });
      await c409(`POST ${t}/collections/execute-perf`, { body: { collectionIds: [c.id], environmentId: null } });
    } finally {
      target.close();
    }
  });

  it("SMTP mailbox", async () => {
    const nsRow = await db().namespace.findUniqueOrThrow({ where: { name: NS } });
    const mail = (subject: string) =>
      recordReceivedMail({ namespaceId: nsRow.id, serverName: "inbox", envelopeFrom: "a@example.test", envelopeTo: ["b@example.test"], headerFrom: null, headerTo: null, cc: null, subject, text: "hi", html: "<p>hi</p>", headers: [{ name: "Subject", value: subject }], rawSize: 10, mockId: null, replyCode: 250, replyText: "OK", attachments: [{ filename: "a.txt", contentType: "text/plain", contentId: null, inline: false, content: Buffer.from("abc") }] });
    const id = await mail("first");
    await ok("GET /api/v1/smtp/messages", { query: `namespace=${NS}&search=first` });
    await ok("GET /api/v1/smtp/messages/{id}", { params: { id } });
    await ok("GET /api/v1/smtp/messages/{id}/attachments/{index}", { params: { id, index: "0" } });
    await ok("DELETE /api/v1/smtp/messages/{id}", { params: { id } });
    await mail("second");
    await ok("DELETE /api/v1/smtp/messages", {});
  });
});

describe("the errors each operation documents", () => {
  it("400, 401, 403 and 404 for every operation that lists them", async () => {
    for (const key of documentedOperations()) {
      const codes = Object.keys(operation(key).responses);
      const base: Req = successes.get(key) ?? { params: absentParams(key) };
      const nsQuery = namespaced(key) ? `namespace=${NS}&` : "";
      // NUL in a query value: refused by every route before any service runs.
      await expectAnswer(key, { ...base, cookie: admin.cookie, token: undefined, query: `${nsQuery}zz=%00` }, 400);
      const anonymous = operation(key).security.length === 0;
      await expectAnswer(key, { ...base, cookie: undefined, token: undefined, headers: { ...base.headers, ...(anonymous ? { authorization: "Bearer not-a-real-token" } : {}) } }, 401);
      if (codes.includes("403")) {
        const admin403 = /Admin role/.test(operation(key).description ?? "");
        const needs = /Needs '(\w+)'/.exec(operation(key).description ?? "")?.[1];
        const who: Req = admin403 ? { cookie: outsider.cookie } : { cookie: undefined, token: needs === "read" ? writeOnlyToken : readToken };
        await expectAnswer(key, { ...base, ...who, query: namespaced(key) ? inNamespace(base.query, NS) : base.query }, 403);
      }
      if (codes.includes("413")) {
        // A declared length past every limit is refused before the body is read.
        const big = { "content-type": "application/json", ...base.headers, "content-length": String(64 * 1024 * 1024) };
        await expectAnswer(key, { rawBody: "{}", ...base, cookie: admin.cookie, token: undefined, headers: big }, 413);
      }
      if (codes.includes("404") && (successes.has(key) || !operation(key).requestBody)) {
        const r: Req = namespaced(key) ? { ...base, cookie: admin.cookie, query: inNamespace(base.query, "absent-ns") } : { ...base, cookie: admin.cookie, params: absentParams(key) };
        await expectAnswer(key, r, 404);
      }
    }
  });

  it("409 where the document lists it", async () => {
    const c = (key: string, r: Req) => expectAnswer(key, { cookie: admin.cookie, ...r, query: r.query ?? (namespaced(key) ? `namespace=${NS}` : undefined) }, 409);
    await c("POST /api/v1/namespaces", { body: { name: NS } });
    await c("POST /api/v1/admin/users", { body: { username: "root-admin" } });
    const other = await makeUser({ username: "renamed-later" });
    await c("PUT /api/v1/admin/users/{id}", { params: { id: other.user.id }, body: { username: "root-admin" } });
    await c("DELETE /api/v1/admin/users/{id}", { params: { id: admin.id } });
    await c("POST /api/v1/admin/users/{id}/disable", { params: { id: admin.id } });
    const provider = { type: "github", slug: "twice", name: "GH", config: { clientId: "a" }, clientSecret: "s" };
    await expectAnswer("POST /api/v1/admin/auth/providers", { cookie: admin.cookie, body: provider }, 201);
    await c("POST /api/v1/admin/auth/providers", { body: provider });
    const folder = await expectAnswer("POST /api/v1/mock-folders", { cookie: admin.cookie, query: `namespace=${NS}`, body: { name: "alpha" } }, 201);
    await expectAnswer("POST /api/v1/mock-folders", { cookie: admin.cookie, query: `namespace=${NS}`, body: { name: "beta" } }, 201);
    await c("POST /api/v1/mock-folders", { body: { name: "alpha" } });
    await c("PUT /api/v1/mock-folders/{id}", { params: { id: folder.id }, body: { name: "beta" } });
    await c("POST /api/v1/tags", { body: { name: "team-x" } });
    await c("POST /api/v1/mocks", { body: { id: "m-two-again", http: { route: "/two" } } });
    await c("POST /api/v1/mocks/batch", { query: `namespace=${NS}&intent=create_new`, body: [{ id: "m-two", http: { route: "/elsewhere" } }] });
    // The same id in two namespaces the admin reads: an id-only call naming neither is ambiguous.
    await expectAnswer("POST /api/v1/mocks", { cookie: admin.cookie, query: `namespace=${NS}`, body: { id: "m-twin", http: { route: "/twin" } } }, 200);
    await expectAnswer("POST /api/v1/mocks/copy-to-namespace", { cookie: admin.cookie, body: { mockIds: ["m-twin"], sourceNamespace: NS, targetNamespace: "sandbox" } }, 200);
    await expectAnswer("POST /api/v1/mocks/copy-to-namespace", { cookie: admin.cookie, body: { mockIds: ["m-gone"], sourceNamespace: NS, targetNamespace: "sandbox" } }, 404);
    for (const key of ["GET /api/v1/mocks/{id}", "DELETE /api/v1/mocks/{id}", "DELETE /api/v1/mocks/{id}/purge", "GET /api/v1/mocks/{id}/versions", "GET /api/v1/mocks/{id}/logs", "POST /api/v1/mocks/{id}/restore"]) {
      await c(key, { query: "", params: { id: "m-twin" } });
    }
    await c("GET /api/v1/mocks/{id}/versions/{version}", { query: "", params: { id: "m-twin", version: "1" } });
    const nsRow = await db().namespace.findUniqueOrThrow({ where: { name: NS } });
    const unmatched = () =>
      db().undefinedRequest.create({
        data: { namespaceId: nsRow.id, protocol: "http", method: "GET", path: "/asked-twice", signature: randomUUID(), query: {}, headers: {}, body: null as never, count: 1 },
      });
    const first = await unmatched();
    await expectAnswer("POST /api/v1/undefined-requests/{id}/create-mock", { cookie: admin.cookie, query: `namespace=${NS}`, params: { id: first.id }, body: {} }, 200);
    await c("POST /api/v1/undefined-requests/{id}/create-mock", { params: { id: (await unmatched()).id }, body: {} });
    await c("PATCH /api/v1/auth/me", { cookie: outsider.cookie, body: { email: "owner@example.test" } });
    const adminUser = await db().user.findUniqueOrThrow({ where: { id: admin.id } });
    const secret = await makeToken(adminUser);
    const revoked = await db().credential.findFirstOrThrow({ where: { userId: admin.id }, orderBy: { createdAt: "desc" } });
    expect(secret).toBeTruthy();
    await expectAnswer("DELETE /api/v1/auth/tokens/{id}", { cookie: admin.cookie, params: { id: revoked.id } }, 200);
    await c("PATCH /api/v1/auth/tokens/{id}", { params: { id: revoked.id }, body: { name: "again" } });
    const delegated = successes.get("POST /api/v1/auth/delegated-credentials/{id}/rotate")!;
    await c("POST /api/v1/auth/delegated-credentials/{id}/rotate", { cookie: owner.cookie, params: delegated.params });
    await c("POST /api/v1/auth/verify-email", { cookie: owner.cookie });
    await c("PUT /api/v1/admin/namespaces/{namespace}/users/{user_id}/role", { params: { namespace: NS, user_id: owner.id }, body: { role: "viewer" } });
    await c("DELETE /api/v1/admin/namespaces/{namespace}/users/{user_id}", { params: { namespace: NS, user_id: owner.id } });
    await c("PUT /api/v1/members/{user_id}", { cookie: owner.cookie, params: { user_id: owner.id }, body: { role: "editor" } });
    await c("DELETE /api/v1/members/{user_id}", { cookie: owner.cookie, params: { user_id: owner.id } });
    const upload = (text: string) => ({ headers: { "content-type": "text/plain", "x-file-name": "k.txt", "idempotency-key": "same-key" }, rawBody: text });
    await expectAnswer("POST /api/v1/temp-files", { cookie: admin.cookie, query: `namespace=${NS}`, ...upload("first") }, 201);
    await c("POST /api/v1/temp-files", upload("second"));
    const tcp = { name: "twice-tcp", protocol: "tcp", port: 1 };
    const firstServer = await expectAnswer("POST /api/v1/protocol-servers", { cookie: admin.cookie, query: `namespace=${NS}`, body: tcp }, 201);
    await expectAnswer("POST /api/v1/protocol-servers", { cookie: admin.cookie, query: `namespace=${NS}`, body: { ...tcp, name: "other-tcp" } }, 201);
    await c("POST /api/v1/protocol-servers", { body: tcp });
    await c("PUT /api/v1/protocol-servers/{id}", { params: { id: firstServer.id }, body: { name: "other-tcp" } });
    const base = 'syntax = "proto3";\npackage dep;\nmessage Base { int32 n = 1; }\n';
    const uses = 'syntax = "proto3";\nimport "dep/base.proto";\nmessage User { dep.Base b = 1; }\n';
    const protos = await expectAnswer("POST /api/v1/api-tester/import/grpc", { cookie: admin.cookie, query: `namespace=${NS}`, body: { files: [{ name: "dep/base.proto", content: base }, { name: "dep/uses.proto", content: uses }] } }, 200);
    const baseId = protos.protos.find((p: { name: string }) => p.name === "dep/base.proto").id;
    await c("DELETE /api/v1/grpc/protos/{id}", { params: { id: baseId } });
    const rmq = { serverName: "admin-rmq" };
    const noApi = { url: "amqp://guest:guest@127.0.0.1:5672", managementUrl: "http://127.0.0.1:9" };
    await c("POST /api/v1/api-tester/rabbitmq/queues", { body: noApi });
    await c("POST /api/v1/api-tester/rabbitmq/exchanges", { body: noApi });
    const held = `openapi-held-${randomUUID().slice(0, 8)}`;
    await expectAnswer("POST /api/v1/api-tester/rabbitmq/queues/create", { cookie: admin.cookie, query: `namespace=${NS}`, body: { ...rmq, queue: held, durable: false } }, 201);
    await c("POST /api/v1/api-tester/rabbitmq/queues/create", { body: { ...rmq, queue: held, durable: true } });
    await expectAnswer("POST /api/v1/api-tester/rabbitmq/publish", { cookie: admin.cookie, query: `namespace=${NS}`, body: { ...rmq, routingKey: held, body: "x" } }, 200);
    await c("POST /api/v1/api-tester/rabbitmq/queues/delete", { body: { ...rmq, queue: held, ifEmpty: true } });
    await expectAnswer("POST /api/v1/api-tester/rabbitmq/exchanges/create", { cookie: admin.cookie, query: `namespace=${NS}`, body: { ...rmq, exchange: held, type: "fanout", durable: false } }, 201);
    await c("POST /api/v1/api-tester/rabbitmq/exchanges/create", { body: { ...rmq, exchange: held, type: "direct", durable: false } });
    // No bind endpoint in the table: amqplib binds, so the exchange is in use.
    const amqp = await amqpConnect("amqp://guest:guest@127.0.0.1:5672");
    try {
      const ch = await amqp.createChannel();
      await ch.bindQueue(held, held, "");
      await c("POST /api/v1/api-tester/rabbitmq/exchanges/delete", { body: { ...rmq, exchange: held, ifUnused: true } });
      await ch.deleteExchange(held);
      await ch.deleteQueue(held);
    } finally {
      await amqp.close();
    }
  });

  it("409 of the API tester: writes to a collection in the trash, permanent delete of an active one, deleting a running run", async () => {
    const t = "/api/v1/api-tester";
    const made = (key: string, r: Req, status = 201) => expectAnswer(key, { cookie: admin.cookie, query: `namespace=${NS}`, ...r }, status);
    const c = await made(`POST ${t}/collections`, { body: { name: "Soon in the trash" } });
    const folder = await made(`POST ${t}/collections/{id}/folders`, { params: { id: c.id }, body: { name: "F" } });
    const request = await made(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "R", url: "https://example.test" } });
    await c409(`DELETE ${t}/collections/{id}`, { params: { id: c.id }, query: `namespace=${NS}&permanent=true` });
    await made(`DELETE ${t}/collections/{id}`, { params: { id: c.id } }, 200);
    await c409(`PUT ${t}/collections/{id}`, { params: { id: c.id }, body: { name: "x" } });
    await c409(`POST ${t}/collections/{id}/folders`, { params: { id: c.id }, body: { name: "x" } });
    await c409(`PUT ${t}/folders/{id}`, { params: { id: folder.id }, body: { name: "x" } });
    await c409(`DELETE ${t}/folders/{id}`, { params: { id: folder.id } });
    await c409(`POST ${t}/collections/{id}/requests`, { params: { id: c.id }, body: { name: "x" } });
    await c409(`POST ${t}/collections/{id}/requests/reorder`, { params: { id: c.id }, body: { ids: [request.id] } });
    await c409(`PUT ${t}/requests/{id}`, { params: { id: request.id }, body: { name: "x" } });
    await c409(`DELETE ${t}/requests/{id}`, { params: { id: request.id } });
    await c409(`DELETE ${t}/requests/batch`, { body: { ids: [request.id] } });
    await c409(`PATCH ${t}/requests/batch/move`, { body: { ids: [request.id], collectionId: c.id } });
    await c409(`POST ${t}/collections/{id}/sharing/users`, { params: { id: c.id }, body: { userIds: [owner.id] } });
    await c409(`POST ${t}/collections/{id}/sharing/spaces`, { params: { id: c.id }, body: { namespaces: ["sandbox"] } });
    await c409(`PUT ${t}/collections/{id}/users/{userId}/role`, { params: { id: c.id, userId: owner.id }, body: { role: "editor" } });
    await c409(`DELETE ${t}/collections/{id}/users/{userId}`, { params: { id: c.id, userId: owner.id } });
    await c409(`DELETE ${t}/collections/{id}/spaces/{namespace}`, { params: { id: c.id, namespace: "sandbox" } });
    const scope = await resolveNamespace(actorFor(await db().user.findUniqueOrThrow({ where: { id: admin.id } })), NS);
    const run = await createTestRun(scope, { name: "Busy", status: "running" });
    await c409(`DELETE ${t}/test-runs/{id}`, { params: { id: run.id } });
    await finishTestRun(run.id, "passed", { requests: 0, passedRequests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 });
  });

  it("503 on forgot-password, e-mail ping and test while e-mail is not configured", async () => {
    await expectAnswer("PUT /api/v1/admin/email/config", { cookie: admin.cookie, body: { enabled: false, host: sink.host, port: sink.port, from: "Polymock <noreply@example.test>" } }, 200);
    await expectAnswer("POST /api/v1/auth/forgot-password", { body: { email: "owner@example.test" } }, 503);
    await expectAnswer("POST /api/v1/admin/email/ping", { cookie: admin.cookie }, 503);
    await expectAnswer("POST /api/v1/admin/email/test", { cookie: admin.cookie, body: { to: "someone@example.test" } }, 503);
  });

  it("every operation was exercised, or is allow-listed with a reason", () => {
    const missing: string[] = [];
    for (const key of documentedOperations()) {
      const codes = Object.keys(operation(key).responses);
      const wanted = ["2xx", ...["400", "401", "403", "404", "409", "413"].filter((c) => codes.includes(c))];
      for (const code of wanted) if (!seen.get(key)?.has(code) && !NOT_EXERCISED[`${key} ${code}`]) missing.push(`${key} ${code}`);
    }
    expect(missing).toEqual([]);
  });
});
