// Inside the isolate: pm.request.url as Postman's Url object. Parsing is
// lenient like Postman's, so unresolved `{{variables}}` (even as the whole
// host) survive a round trip; nothing is percent-decoded.
import { PropertyList, parseQueryPair, queryList } from "./property-list";

export class Url {
  protocol: string | undefined;
  auth: { user: string; password?: string } | undefined;
  host: string[] | undefined;
  port: string | undefined;
  path: string[] | undefined;
  query!: PropertyList;
  hash: string | undefined;

  constructor(raw: unknown) {
    this.update(raw);
  }

  /** Replaces every part from a URL string or from a {raw} / {protocol, host, path, query} object. */
  update(raw: unknown): void {
    if (raw instanceof Url) raw = raw.toString();
    if (raw !== null && typeof raw === "object") {
      const o = raw as Record<string, unknown>;
      if (typeof o.raw === "string") return this.update(o.raw);
      this.protocol = typeof o.protocol === "string" ? o.protocol : undefined;
      this.host = Array.isArray(o.host) ? o.host.map(String) : typeof o.host === "string" ? o.host.split(".") : undefined;
      this.port = o.port === undefined ? undefined : String(o.port);
      this.path = Array.isArray(o.path) ? o.path.map(String) : typeof o.path === "string" ? o.path.replace(/^\//, "").split("/") : undefined;
      this.query = queryList(Array.isArray(o.query) ? o.query : []);
      this.hash = typeof o.hash === "string" ? o.hash : undefined;
      this.auth = undefined;
      return;
    }
    let rest = String(raw ?? "").trim();
    const hashAt = rest.indexOf("#");
    this.hash = hashAt < 0 ? undefined : rest.slice(hashAt + 1);
    if (hashAt >= 0) rest = rest.slice(0, hashAt);
    const queryAt = rest.indexOf("?");
    const query = queryAt < 0 ? undefined : rest.slice(queryAt + 1);
    if (queryAt >= 0) rest = rest.slice(0, queryAt);
    this.query = queryList(query === undefined || query === "" ? [] : query.split("&").map(parseQueryPair));
    const scheme = /^([^:/?#{}]+):\/\//.exec(rest);
    this.protocol = scheme ? scheme[1] : undefined;
    if (scheme) rest = rest.slice(scheme[0].length);
    const slash = rest.indexOf("/");
    let authority = slash < 0 ? rest : rest.slice(0, slash);
    this.path = slash < 0 ? undefined : rest.slice(slash + 1).split("/");
    const at = authority.lastIndexOf("@");
    this.auth = undefined;
    if (at >= 0) {
      const [user, ...password] = authority.slice(0, at).split(":");
      this.auth = password.length ? { user, password: password.join(":") } : { user };
      authority = authority.slice(at + 1);
    }
    const port = /:(\d+|\{\{[^{}]+\}\})$/.exec(authority);
    this.port = port ? port[1] : undefined;
    if (port) authority = authority.slice(0, -port[0].length);
    this.host = authority ? (/^\{\{[^{}]+\}\}$/.test(authority) ? [authority] : authority.split(".")) : undefined;
  }

  get [Symbol.toStringTag](): string {
    return "Url";
  }

  getHost(): string {
    return this.host ? this.host.join(".") : "";
  }

  getRemote(forcePort = false): string {
    const port = this.port ?? (forcePort ? (this.protocol === "https" ? "443" : "80") : undefined);
    return port ? `${this.getHost()}:${port}` : this.getHost();
  }

  getPath(): string {
    return this.path ? `/${this.path.join("/")}` : "/";
  }

  getQueryString(): string {
    return this.query.toString();
  }

  getPathWithQuery(): string {
    const query = this.getQueryString();
    return query ? `${this.getPath()}?${query}` : this.getPath();
  }

  getRaw(): string {
    return this.toString();
  }

  addQueryParams(params: unknown): void {
    const list = typeof params === "string" ? params.split("&").map(parseQueryPair) : Array.isArray(params) ? params : [params];
    for (const p of list) this.query.add(p);
  }

  removeQueryParams(params: unknown): void {
    const list = Array.isArray(params) ? params : [params];
    for (const p of list) this.query.remove(typeof p === "string" ? p : String((p as { key?: unknown })?.key ?? ""));
  }

  toString(): string {
    let out = this.protocol ? `${this.protocol}://` : "";
    if (this.auth) out += `${this.auth.user}${this.auth.password !== undefined ? `:${this.auth.password}` : ""}@`;
    out += this.getHost();
    if (this.port) out += `:${this.port}`;
    if (this.path) out += `/${this.path.join("/")}`;
    const query = this.getQueryString();
    if (query) out += `?${query}`;
    if (this.hash !== undefined) out += `#${this.hash}`;
    return out;
  }

  toJSON(): Record<string, unknown> {
    return { raw: this.toString(), protocol: this.protocol, host: this.host, port: this.port, path: this.path, query: this.query.toJSON(), hash: this.hash };
  }
}
