"use client";
// A request's (or folder's, or collection's) authorization: inherit from the
// parent, none, bearer token, basic, API key (header or query) or OAuth 2.0
// client credentials. Switching type keeps the other types' fields, so a
// switch back loses nothing. Fields take {{variables}}.
import { useId } from "react";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { AUTH_TYPES, type RequestAuth } from "@/server/contracts/tester-request";
import { HighlightedInput } from "./highlighted-input";
import { SecretInput } from "./secret-input";

type AuthType = (typeof AUTH_TYPES)[number];
type OAuth2 = NonNullable<RequestAuth["oauth2"]>;

const TYPE_LABELS: Record<AuthType, string> = { inherit: "Inherit auth from parent", none: "No auth", bearer: "Bearer token", basic: "Basic auth", apikey: "API key", oauth2: "OAuth 2.0" };
const TYPE_HELP: Record<AuthType, string> = {
  inherit: "The request uses its folder's auth, or its collection's when the folder has none.",
  none: "No Authorization header or key is added to the request.",
  bearer: "Sends Authorization: Bearer <token>.",
  basic: "Sends Authorization: Basic with the username and password encoded in base64.",
  apikey: "Sends a key and value as a header or as a query parameter.",
  oauth2: "Fetches an access token with the client credentials grant before the request and sends it as a bearer token.",
};

export interface AuthEditorProps {
  auth: RequestAuth;
  onChange: (auth: RequestAuth) => void;
  variables: Record<string, string>;
  /** What "inherit" resolves to, when the page knows ("Collection “Shop”: Bearer token"). */
  inheritedFrom?: string;
  /** A collection has no parent: hide "inherit". */
  allowInherit?: boolean;
}

export function AuthEditor({ auth, onChange, variables, inheritedFrom, allowInherit = true }: AuthEditorProps) {
  const id = useId();
  const types = AUTH_TYPES.filter((t) => allowInherit || t !== "inherit");
  const set = (patch: Partial<RequestAuth>) => onChange({ ...auth, ...patch });
  const oauth: OAuth2 = auth.oauth2 ?? { grantType: "client_credentials", accessTokenUrl: "", clientId: "", clientSecret: "", clientAuthentication: "header" };
  const setOAuth = (patch: Partial<OAuth2>) => set({ oauth2: { ...oauth, ...patch } });

  const text = (key: string, label: string, value: string, onValue: (v: string) => void, placeholder?: string, hint?: string) => (
    <Row id={`${id}-${key}`} label={label} hint={hint}>
      <HighlightedInput id={`${id}-${key}`} aria-describedby={hint ? `${id}-${key}-hint` : undefined} value={value} onValueChange={onValue} variables={variables} placeholder={placeholder} />
    </Row>
  );

  return (
    <div className="grid gap-6 md:grid-cols-[16rem_1fr]">
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-type`}>Auth type</Label>
        <Select value={auth.type} onValueChange={(t) => set({ type: t as AuthType })}>
          <SelectTrigger id={`${id}-type`} aria-describedby={`${id}-help`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {types.map((t) => (
              <SelectItem key={t} value={t}>
                {TYPE_LABELS[t]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <p id={`${id}-help`} className="text-xs text-muted-foreground">
          {TYPE_HELP[auth.type]}
          {auth.type !== "inherit" && auth.type !== "none" ? (
            <>
              {" "}
              An Authorization header (or the key&apos;s header) set in Headers wins over it. Values may use <code className="font-mono">{"{{variables}}"}</code>.
            </>
          ) : null}
        </p>
      </div>

      <div className="flex flex-col gap-4">
        {auth.type === "inherit" ? <p className="rounded-md border border-dashed px-4 py-5 text-sm text-muted-foreground">{inheritedFrom ? `This request uses the auth of ${inheritedFrom}.` : TYPE_HELP.inherit}</p> : null}
        {auth.type === "none" ? <p className="rounded-md border border-dashed px-4 py-5 text-sm text-muted-foreground">This request does not use any authorization.</p> : null}
        {auth.type === "bearer" ? text("token", "Token", auth.bearer?.token ?? "", (token) => set({ bearer: { token } }), "{{accessToken}}") : null}
        {auth.type === "basic" ? (
          <>
            {text("username", "Username", auth.basic?.username ?? "", (username) => set({ basic: { password: "", ...auth.basic, username } }))}
            <Row id={`${id}-password`} label="Password">
              <SecretInput id={`${id}-password`} value={auth.basic?.password ?? ""} onChange={(e) => set({ basic: { username: "", ...auth.basic, password: e.target.value } })} />
            </Row>
          </>
        ) : null}
        {auth.type === "apikey" ? (
          <>
            {text("key", "Key", auth.apikey?.key ?? "", (key) => set({ apikey: { value: "", in: "header", ...auth.apikey, key } }), "X-API-Key")}
            {text("value", "Value", auth.apikey?.value ?? "", (value) => set({ apikey: { key: "", in: "header", ...auth.apikey, value } }), "{{apiKey}}")}
            <Row id={`${id}-in`} label="Add to">
              <Select value={auth.apikey?.in ?? "header"} onValueChange={(v) => set({ apikey: { key: "", value: "", ...auth.apikey, in: v as "header" | "query" } })}>
                <SelectTrigger id={`${id}-in`} className="max-w-56">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="header">Header</SelectItem>
                  <SelectItem value="query">Query params</SelectItem>
                </SelectContent>
              </Select>
            </Row>
          </>
        ) : null}
        {auth.type === "oauth2" ? (
          <>
            <Row id={`${id}-grant`} label="Grant type">
              <p id={`${id}-grant`} className="flex h-9 items-center text-sm">
                Client credentials
              </p>
            </Row>
            {text("token-url", "Access token URL", oauth.accessTokenUrl, (accessTokenUrl) => setOAuth({ accessTokenUrl }), "https://auth.example.com/oauth/token")}
            {text("client-id", "Client ID", oauth.clientId, (clientId) => setOAuth({ clientId }))}
            <Row id={`${id}-client-secret`} label="Client secret">
              <SecretInput id={`${id}-client-secret`} value={oauth.clientSecret} onChange={(e) => setOAuth({ clientSecret: e.target.value })} />
            </Row>
            {text("scope", "Scope", oauth.scope ?? "", (scope) => setOAuth({ scope: scope || undefined }), "read:orders write:orders", "Space-separated; leave empty for the server's default.")}
            {text("audience", "Audience", oauth.audience ?? "", (audience) => setOAuth({ audience: audience || undefined }), "https://api.example.com", "Some servers (Auth0, Okta) need it to pick the API the token is for.")}
            <Row id={`${id}-client-auth`} label="Client authentication">
              <Select value={oauth.clientAuthentication} onValueChange={(v) => setOAuth({ clientAuthentication: v as OAuth2["clientAuthentication"] })}>
                <SelectTrigger id={`${id}-client-auth`} className="max-w-80">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="header">Send as Basic Auth header</SelectItem>
                  <SelectItem value="body">Send client credentials in body</SelectItem>
                </SelectContent>
              </Select>
            </Row>
            <p className="text-xs text-muted-foreground">The token is fetched when the request is sent, kept until it expires, and sent as Authorization: Bearer.</p>
          </>
        ) : null}
      </div>
    </div>
  );
}

function Row({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="grid items-start gap-1.5 sm:grid-cols-[11rem_1fr] sm:gap-3">
      <Label htmlFor={id} className="text-sm sm:pt-2">
        {label}
      </Label>
      <div className="flex min-w-0 flex-col gap-1">
        {children}
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
