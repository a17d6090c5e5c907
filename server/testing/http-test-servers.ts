// Real servers for the API tester's tests (server/tester): a node:http server
// per test with any handler, an echo handler that reports what arrived, an
// https server with a freshly generated self-signed certificate, and small
// helpers to build a PreparedRequest and catch a SendError.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, expect } from "vitest";
import { RequestSettings } from "@/server/contracts/tester-request";
import { SendError } from "@/server/tester/send-error";
import type { PreparedRequest } from "@/server/tester/prepared-request";

export interface TestServer {
  url: string;
  port: number;
  server: http.Server;
  /** Sockets the server accepted, for keep-alive assertions. */
  connections(): number;
  close(): Promise<void>;
}

async function listen(server: http.Server, host: string | undefined, scheme: string): Promise<TestServer> {
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://${host ?? "localhost"}:${port}`,
    port,
    server,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Listens on 127.0.0.1 (or every interface with host "", the URL then using localhost). */
export function startServer(handler: http.RequestListener, host: string = "127.0.0.1"): Promise<TestServer> {
  return listen(http.createServer(handler), host === "" ? undefined : host, "http");
}

export interface Echo {
  method: string;
  url: string;
  /** Raw header pairs as they arrived. */
  headers: [string, string][];
  bodyBase64: string;
  body: string;
}

export async function readAll(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Answers 200 with JSON describing the request. */
export const echoHandler: http.RequestListener = (req, res) => {
  void readAll(req).then((body) => {
    const headers: [string, string][] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
    const echo: Echo = { method: req.method ?? "", url: req.url ?? "", headers, bodyBase64: body.toString("base64"), body: body.toString("utf8") };
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(echo));
  });
};

/** The echo's first value of a header, by case-insensitive name. */
export function echoHeader(echo: Echo, name: string): string | undefined {
  return echo.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

let certificate: Promise<{ key: string; cert: string }> | undefined;

export function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= (async () => {
    const { generate } = await import("selfsigned");
    const pems = await generate([{ name: "commonName", value: "localhost" }], {
      keyType: "ec",
      curve: "P-256",
      algorithm: "sha256",
      extensions: [
        { name: "basicConstraints", cA: false },
        { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }] },
      ],
    });
    return { key: pems.private, cert: pems.cert };
  })();
  return certificate;
}

export async function startHttpsServer(handler: http.RequestListener): Promise<TestServer> {
  const { key, cert } = await selfSignedCertificate();
  return listen(https.createServer({ key, cert }, handler), "127.0.0.1", "https");
}

/** A PreparedRequest with the contract's default settings. */
export function prepared(url: string, over: Partial<Omit<PreparedRequest, "settings">> & { settings?: Partial<RequestSettings> } = {}): PreparedRequest {
  const { settings, ...rest } = over;
  return { method: "GET", url, headers: [], bodyPreview: {}, unresolved: [], ...rest, settings: RequestSettings.parse(settings ?? {}) };
}

/** The SendError a send failed with (the test fails if it succeeded or threw something else). */
export async function sendError(p: Promise<unknown>): Promise<SendError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SendError);
  return err as SendError;
}

/** Servers started by one test file, closed after it. */
export function serverSet(): { serve(handler: http.RequestListener, host?: string): Promise<TestServer>; add(s: TestServer): TestServer } {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  return {
    async serve(handler, host) {
      const s = await startServer(handler, host);
      servers.push(s);
      return s;
    },
    add(s) {
      servers.push(s);
      return s;
    },
  };
}
