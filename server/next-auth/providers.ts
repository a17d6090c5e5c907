// Admin-configured identity providers (rows of IdentityProvider) as next-auth
// providers. The next-auth provider id is the row's slug, so the callback URL
// to register at the provider is <public URL>/api/auth/callback/<slug>.
import type { Provider } from "next-auth/providers/index";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { TokenSet } from "openid-client";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { OAuthPresetConfig, OidcConfig } from "@/server/contracts/identity-providers";
import { db, type IdentityProvider } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { providerSecret } from "@/server/services/identity-providers";
import type { ExternalProfile } from "./adapter";

export const OAUTH_PROVIDER_TYPES = ["oidc", "github", "google"] as const;

type Claims = Record<string, unknown>;

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : null);

export function oidcProfile(claims: Claims, usernameClaim: string): ExternalProfile {
  const sub = String(claims.sub);
  return {
    id: sub,
    name: text(claims.name),
    email: text(claims.email),
    image: text(claims.picture),
    usernameClaim: text(claims[usernameClaim]),
    subject: sub,
    emailVerifiedByProvider: claims.email_verified === true || claims.email_verified === "true",
  };
}

function oidcProvider(row: IdentityProvider, secret: string): OAuthConfig<Claims> {
  const config = OidcConfig.parse(row.config);
  return {
    id: row.slug,
    name: row.name,
    type: "oauth",
    wellKnown: `${config.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: secret,
    authorization: { params: { scope: config.scopes } },
    idToken: true,
    checks: ["pkce", "state"],
    userinfo: {
      // Many providers put the profile claims (email, name, preferred_username)
      // only in the userinfo response when an access token is issued, as the
      // spec recommends; others only in the ID token. Read both; userinfo wins.
      async request({ tokens, client }) {
        // next-auth types it as plain parameters; at run time it is openid-client's TokenSet.
        const tokenSet = tokens as unknown as TokenSet;
        const idClaims = tokenSet.claims() as Claims;
        if (!client.issuer.metadata.userinfo_endpoint || !tokenSet.access_token) return idClaims;
        const userinfo = (await client.userinfo(tokenSet)) as Claims;
        return { ...idClaims, ...userinfo };
      },
    },
    profile: (claims) => oidcProfile(claims, config.usernameClaim),
  };
}

function githubProvider(row: IdentityProvider, secret: string): Provider {
  const { clientId } = OAuthPresetConfig.parse(row.config);
  return GitHubProvider({
    id: row.slug,
    name: row.name,
    clientId,
    clientSecret: secret,
    profile: (p): ExternalProfile => ({
      id: String(p.id),
      name: p.name ?? p.login,
      email: p.email ?? null,
      image: p.avatar_url ?? null,
      usernameClaim: p.login,
      subject: String(p.id),
      // GitHub's profile does not say whether the (primary) address is verified.
      emailVerifiedByProvider: false,
    }),
  });
}

function googleProvider(row: IdentityProvider, secret: string): Provider {
  const { clientId } = OAuthPresetConfig.parse(row.config);
  return GoogleProvider({
    id: row.slug,
    name: row.name,
    clientId,
    clientSecret: secret,
    // Google has no username claim: the e-mail local part is used.
    profile: (p) => oidcProfile(p, "preferred_username"),
  });
}

/** Enabled OAuth/OIDC providers; a row whose settings or secret cannot be read is skipped and logged. */
export async function loadSignInProviders(): Promise<{ rows: IdentityProvider[]; providers: Provider[] }> {
  const all = await db().identityProvider.findMany({ where: { enabled: true, type: { in: [...OAUTH_PROVIDER_TYPES] } } });
  const rows: IdentityProvider[] = [];
  const providers: Provider[] = [];
  for (const row of all) {
    try {
      const secret = providerSecret(row);
      if (!secret) throw new Error("no client secret is stored");
      providers.push(row.type === "github" ? githubProvider(row, secret) : row.type === "google" ? googleProvider(row, secret) : oidcProvider(row, secret));
      rows.push(row);
    } catch (err) {
      logger().warn({ err, provider: row.slug }, "identity provider skipped: its settings cannot be used");
    }
  }
  return { rows, providers };
}
