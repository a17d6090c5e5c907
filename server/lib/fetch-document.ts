// Fetches a document a user points at (an OpenAPI file, a WSDL, a HAR…) under
// the outbound policy: http(s) only, every hop (redirects included) checked
// and resolved through the guard, a size cap while reading (not after), and a
// deadline. Failures are AppErrors: a refused or malformed URL is the
// caller's 400, an unreachable or failing host a 502.
import http from "node:http";
import https from "node:https";
import { AppError, errors } from "@/server/errors";
import { assertAllowedTarget, BlockedTargetError, guardedAgent, safeLookup } from "./ssrf";

export interface FetchedDocument {
  text: string;
  contentType: string | undefined;
  /** The URL after redirects. */
  url: string;
}

const MAX_REDIRECTS = 3;

export function refuse(field: string, message: string): AppError {
  return errors.validation(message, [{ location: "body", field, message }]);
}

/**
 * A URL a user gave (a document to fetch, a server to connect to), checked
 * before anything is sent: malformed, not http(s), or refused by the outbound
 * policy is a 400 on `field`. Redirects are the caller's to check again.
 */
export function checkedUserUrl(text: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse(field, "not a valid URL");
  }
  checkHop(url, field);
  return url;
}

function checkHop(url: URL, field: string) {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw refuse(field, `${url.protocol}// URLs are not allowed here (http and https are)`);
  try {
    assertAllowedTarget(url);
  } catch (err) {
    if (err instanceof BlockedTargetError) throw refuse(field, err.message);
    throw err;
  }
}

function once(url: URL, maxBytes: number, deadline: number): Promise<{ status: number; location?: string; text: string; contentType?: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(url, { method: "GET", agent: guardedAgent(url.protocol), lookup: safeLookup, headers: { accept: "application/json, application/yaml, text/yaml, application/xml, text/xml, */*;q=0.5" } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolve({ status, location: res.headers.location, text: "" });
        return;
      }
      const declared = Number(res.headers["content-length"] ?? 0);
      if (declared > maxBytes) {
        res.destroy();
        reject(new AppError("payload_too_large", `the document at ${url.host} is ${declared} bytes; the limit is ${maxBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          reject(new AppError("payload_too_large", `the document at ${url.host} is larger than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => resolve({ status, text: Buffer.concat(chunks).toString("utf8"), contentType: res.headers["content-type"] }));
      res.on("error", reject);
    });
    req.setTimeout(Math.max(1, deadline - Date.now()), () => req.destroy(new AppError("external", `no answer from ${url.host} in time`, { status: 502 })));
    req.on("error", (err) => reject(err instanceof AppError || err instanceof BlockedTargetError ? err : new AppError("external", `cannot fetch the document from ${url.host}: ${(err as Error).message}`, { status: 502 })));
    req.end();
  });
}

export async function fetchDocument(text: string, opts: { field?: string; maxBytes: number; timeoutMs?: number }): Promise<FetchedDocument> {
  const field = opts.field ?? "url";
  let url = checkedUserUrl(text, field);
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (let hop = 0; ; hop++) {
    if (hop > 0) checkHop(url, field);
    try {
      const res = await once(url, opts.maxBytes, deadline);
      if (res.location) {
        if (hop >= MAX_REDIRECTS) throw new AppError("external", `more than ${MAX_REDIRECTS} redirects from ${url.host}`, { status: 502 });
        url = new URL(res.location, url);
        continue;
      }
      if (res.status >= 400) throw new AppError("external", `${url.host} answered ${res.status} for the document`, { status: 502 });
      return { text: res.text, contentType: res.contentType, url: url.toString() };
    } catch (err) {
      if (err instanceof BlockedTargetError) throw refuse(field, err.message);
      throw err;
    }
  }
}
