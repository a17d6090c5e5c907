// What the requests of one execution share: a script sandbox (made on first
// use), keep-alive connections, a cookie jar, an OAuth 2 token cache and the
// client pm.sendRequest uses. Close it when the execution ends.
import { CookieJar } from "tough-cookie";
import { RequestDefinition } from "@/server/contracts/tester-request";
import type { ExecuteDeps } from "./execute-item";
import { ConnectionPool, sendHttp } from "./http-client";
import { createOAuth2TokenResolver } from "./oauth2";
import { buildRequest } from "./request-builder";
import { ScriptSandbox, type ScriptRequest } from "./sandbox";
import { emptyScopes } from "./scopes";

export interface RunDeps {
  deps: ExecuteDeps;
  close(): Promise<void>;
}

export function openRunDeps(opts: { signal?: AbortSignal; privatePolicy?: "env" | "strict" }): RunDeps {
  let sandbox: Promise<ScriptSandbox> | undefined;
  const pool = new ConnectionPool();
  const cookieJar = new CookieJar();
  const sendOptions = { signal: opts.signal, agentPool: pool, privatePolicy: opts.privatePolicy };
  const oauth2 = createOAuth2TokenResolver({ sendOptions });
  const deps: ExecuteDeps = {
    sandbox: () => (sandbox ??= ScriptSandbox.create()),
    pool,
    cookieJar,
    signal: opts.signal,
    privatePolicy: opts.privatePolicy,
    resolveOAuth2Token: oauth2,
    // As in Postman, pm.sendRequest sends what the script gives: no {{variable}} substitution (scripts use pm.variables.replaceIn).
    sendFromScript: async (req: string | ScriptRequest) => {
      const def =
        typeof req === "string"
          ? { url: req, auth: { type: "none" as const } }
          : { method: req.method, url: req.url, headers: req.headers, body: req.body, auth: req.auth ?? { type: "none" as const } };
      const prepared = await buildRequest(RequestDefinition.parse(def), { scopes: emptyScopes(), resolveOAuth2Token: oauth2 });
      return sendHttp(prepared, { ...sendOptions, cookieJar });
    },
  };
  return {
    deps,
    async close() {
      if (sandbox) (await sandbox.catch(() => null))?.dispose();
      pool.close();
    },
  };
}
