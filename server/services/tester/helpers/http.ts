// proxy/http: one request sent from the server and not saved anywhere — the
// workspace's send without a collection, history or scripts. The answer is the
// executor's own response shape (status, headers, body, cookies, timings,
// redirects), so the UI shows it with the same viewer.
import type { ProxyHttpInput } from "@/server/contracts/tester-helpers";
import { headerEntries, sendOutbound } from "./outbound";

export function proxyHttp(input: ProxyHttpInput, signal?: AbortSignal) {
  return sendOutbound(
    { method: input.method, url: input.url, headers: headerEntries(input.headers), body: input.body, timeoutMs: input.timeout, followRedirects: input.followRedirects, verifyTls: input.verifyTls, signal },
    "url",
  );
}
