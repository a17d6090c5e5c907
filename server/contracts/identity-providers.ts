import { z } from "zod";
import { IdParams, OkResponse, Timestamp } from "./common";
import { endpoint } from "./endpoint";

const Slug = z.string().min(1).max(64).regex(/^[a-z0-9][a-z0-9-]*$/, "lowercase letters, digits and '-'");
const HttpUrl = z.string().url().max(2000).refine((u) => /^https?:\/\//.test(u), "must be an http(s) URL");

export const OidcConfig = z.object({
  issuer: HttpUrl.describe("the issuer URL; its /.well-known/openid-configuration is read"),
  clientId: z.string().min(1).max(500),
  scopes: z.string().max(500).default("openid email profile"),
  usernameClaim: z.string().max(100).default("preferred_username"),
});
export const OAuthPresetConfig = z.object({ clientId: z.string().min(1).max(500) });
export const LdapConfig = z.object({
  url: z.string().max(2000).regex(/^ldaps?:\/\//, "must start with ldap:// or ldaps://"),
  bindDn: z.string().max(1000).default(""),
  baseDn: z.string().min(1).max(1000),
  userFilter: z.string().max(1000).default("(uid={{username}})").describe("{{username}} is replaced by the escaped login name"),
  usernameAttribute: z.string().max(100).default("uid"),
  emailAttribute: z.string().max(100).default("mail"),
  nameAttribute: z.string().max(100).default("cn"),
  startTls: z.boolean().default(false),
  tlsRejectUnauthorized: z.boolean().default(true),
  timeoutMs: z.number().int().min(100).max(60000).default(5000),
});
export type LdapConfig = z.infer<typeof LdapConfig>;
export type OidcConfig = z.infer<typeof OidcConfig>;

const Common = {
  slug: Slug,
  name: z.string().trim().min(1).max(100),
  enabled: z.boolean().default(true),
  autoCreateUsers: z.boolean().default(true).describe("create a user at first sign-in"),
};

export const CreateProviderInput = z.discriminatedUnion("type", [
  z.object({ type: z.literal("oidc"), ...Common, config: OidcConfig, clientSecret: z.string().min(1).max(2000) }).strict(),
  z.object({ type: z.literal("github"), ...Common, config: OAuthPresetConfig, clientSecret: z.string().min(1).max(2000) }).strict(),
  z.object({ type: z.literal("google"), ...Common, config: OAuthPresetConfig, clientSecret: z.string().min(1).max(2000) }).strict(),
  z.object({ type: z.literal("ldap"), ...Common, config: LdapConfig, bindPassword: z.string().max(2000).optional() }).strict(),
]);
export type CreateProviderInput = z.infer<typeof CreateProviderInput>;

export const UpdateProviderInput = z
  .object({
    name: Common.name.optional(),
    enabled: z.boolean().optional(),
    autoCreateUsers: z.boolean().optional(),
    config: z.record(z.string(), z.unknown()).optional().describe("merged into the current config, then validated for the provider's type"),
    clientSecret: z.string().min(1).max(2000).optional(),
    bindPassword: z.string().max(2000).optional(),
  })
  .strict();

export const ProviderView = z.object({
  id: z.string(),
  slug: z.string(),
  type: z.enum(["oidc", "github", "google", "ldap"]),
  name: z.string(),
  enabled: z.boolean(),
  autoCreateUsers: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  hasSecret: z.boolean(),
  loginUrl: z.string().nullable().describe("where the browser starts an OAuth login; null for LDAP"),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProviderView = z.infer<typeof ProviderView>;
export const ProviderList = z.object({ providers: z.array(ProviderView), count: z.number().int() });

export const LdapTestInput = z
  .object({
    providerId: z.string().uuid().optional().describe("test a saved provider"),
    config: LdapConfig.optional().describe("or test unsaved settings"),
    bindPassword: z.string().max(2000).optional(),
    username: z.string().max(256).optional().describe("also look this user up"),
    password: z.string().max(256).optional().describe("and check this password"),
  })
  .strict()
  .refine((v) => Boolean(v.providerId) || Boolean(v.config), "give providerId or config");
export const LdapTestOutput = z.object({
  ok: z.boolean(),
  steps: z.array(z.object({ step: z.string(), ok: z.boolean(), message: z.string() })),
  user: z.object({ dn: z.string(), username: z.string(), email: z.string().nullable(), fullName: z.string() }).nullable(),
});

/** What the login page may know about providers (no secrets, no config). */
export const PublicProviderList = z.object({
  providers: z.array(z.object({ slug: z.string(), type: z.string(), name: z.string(), loginUrl: z.string().nullable() })),
});

const tag = "Administration";
export const identityProviderEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/admin/auth/providers", tag, summary: "List identity providers", auth: "admin", response: ProviderList }),
  create: endpoint({ method: "POST", path: "/api/v1/admin/auth/providers", tag, summary: "Create an identity provider (OIDC, GitHub, Google, LDAP)", auth: "admin", body: CreateProviderInput, response: ProviderView, successStatus: 201 , statuses: { 409: "a provider with the slug exists" } }),
  update: endpoint({ method: "PUT", path: "/api/v1/admin/auth/providers/{id}", tag, summary: "Update an identity provider", auth: "admin", params: IdParams, body: UpdateProviderInput, response: ProviderView }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/admin/auth/providers/{id}", tag, summary: "Delete an identity provider", auth: "admin", params: IdParams, response: OkResponse }),
  ldapTest: endpoint({ method: "POST", path: "/api/v1/admin/auth/ldap/test-connection", tag, summary: "Test an LDAP connection (bind, search, optional user check)", auth: "admin", body: LdapTestInput, response: LdapTestOutput }),
  publicList: endpoint({ method: "GET", path: "/api/v1/auth/providers", tag: "Authentication", summary: "Enabled sign-in providers, for the login page", auth: "none", response: PublicProviderList }),
} as const;
