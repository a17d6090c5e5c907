// A real OpenID Connect provider for end-to-end tests: the `oidc-provider`
// package (the certified implementation by panva) on a free 127.0.0.1 port.
// Sign-in uses the package's development interaction pages: a form asking for
// a login (the account id) and any password. Consent is granted up front
// (loadExistingGrant), as for a first-party client, so the browser goes
// straight from the login form back to the relying party.
import http from "node:http";
import { freePort } from "./server";

export interface OidcTestAccount {
  /** The account id; typed into the provider's login form and returned as `sub`. */
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
}

export interface OidcTestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface RunningOidcProvider {
  issuer: string;
  stop(): Promise<void>;
}

// The parts of the oidc-provider API used here. The package ships no type
// declarations, so it is imported through a non-literal specifier (which
// TypeScript leaves untyped) and described by these interfaces instead.
interface OidcGrant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}
interface OidcProviderInstance {
  Grant: new (init: { accountId: string; clientId: string }) => OidcGrant;
  callback(): http.RequestListener;
}
interface OidcContext {
  oidc: { session: { accountId: string; grantIdFor(clientId: string): string | undefined }; client: { clientId: string }; provider: OidcProviderInstance };
}
type OidcProviderConstructor = new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance;

const SCOPE_CLAIMS = { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] };

export async function startOidcProvider(opts: { clients: OidcTestClient[]; accounts: OidcTestAccount[] }): Promise<RunningOidcProvider> {
  const specifier: string = "oidc-provider";
  const { default: Provider } = (await import(specifier)) as { default: OidcProviderConstructor };
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map(opts.accounts.map((a) => [a.sub, a]));

  const provider = new Provider(issuer, {
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    claims: SCOPE_CLAIMS,
    async findAccount(_ctx: unknown, id: string) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ ...account }) };
    },
    async loadExistingGrant(ctx: OidcContext) {
      const { session, client, provider: p } = ctx.oidc;
      const existing = session.grantIdFor(client.clientId);
      if (existing) return (p as unknown as { Grant: { find(id: string): Promise<OidcGrant> } }).Grant.find(existing);
      // Every client here is first-party: grant the requested scopes without a consent page.
      const grant = new p.Grant({ accountId: session.accountId, clientId: client.clientId });
      grant.addOIDCScope("openid email profile");
      grant.addOIDCClaims(Object.values(SCOPE_CLAIMS).flat());
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    // Explicit lifetimes (seconds); the defaults work but print a notice each.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    // Fixed keys: cookies must survive nothing longer than one test run.
    cookies: { keys: ["polymock-e2e-oidc-cookie-key"] },
  });

  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
