// The identity-provider form holds the fields of every provider type at once
// (switching the type keeps what was typed); these helpers turn it into the
// contract's create or update input for the chosen type, so validation and
// field errors come from the contracts themselves.
import { z } from "zod";
import {
  CreateProviderInput,
  LdapConfig,
  OAuthPresetConfig,
  OidcConfig,
  type ProviderView,
  UpdateProviderInput,
} from "@/server/contracts/identity-providers";

export type ProviderType = ProviderView["type"];

export const CONFIG_SCHEMA = { oidc: OidcConfig, github: OAuthPresetConfig, google: OAuthPresetConfig, ldap: LdapConfig } as const;

export const TYPE_LABEL: Record<ProviderType, string> = { oidc: "OpenID Connect", github: "GitHub", google: "Google", ldap: "LDAP" };

export type ConfigValues = Required<z.input<typeof OidcConfig> & z.input<typeof LdapConfig>>;

export interface ProviderFormValues {
  type: ProviderType;
  name: string;
  slug: string;
  enabled: boolean;
  autoCreateUsers: boolean;
  clientSecret: string;
  bindPassword: string;
  config: ConfigValues;
}

const CONFIG_DEFAULTS: ConfigValues = {
  issuer: "",
  clientId: "",
  scopes: "openid email profile",
  usernameClaim: "preferred_username",
  url: "ldap://",
  bindDn: "",
  baseDn: "",
  userFilter: "(uid={{username}})",
  usernameAttribute: "uid",
  emailAttribute: "mail",
  nameAttribute: "cn",
  startTls: false,
  tlsRejectUnauthorized: true,
  timeoutMs: 5000,
};

export function emptyValues(type: ProviderType = "oidc"): ProviderFormValues {
  return { type, name: "", slug: "", enabled: true, autoCreateUsers: true, clientSecret: "", bindPassword: "", config: { ...CONFIG_DEFAULTS } };
}

export function valuesFrom(p: ProviderView): ProviderFormValues {
  return { ...emptyValues(p.type), name: p.name, slug: p.slug, enabled: p.enabled, autoCreateUsers: p.autoCreateUsers, config: { ...CONFIG_DEFAULTS, ...(p.config as Partial<ConfigValues>) } };
}

/** The config keys the type uses, taken from its contract. */
export function configFor(type: ProviderType, config: ConfigValues): Record<string, unknown> {
  return Object.fromEntries(Object.keys(CONFIG_SCHEMA[type].shape).map((k) => [k, config[k as keyof ConfigValues]]));
}

const blank = (s: string) => (s.trim() === "" ? undefined : s);

function toCreateInput(v: ProviderFormValues) {
  const common = { type: v.type, slug: v.slug, name: v.name, enabled: v.enabled, autoCreateUsers: v.autoCreateUsers, config: configFor(v.type, v.config) };
  return v.type === "ldap" ? { ...common, bindPassword: blank(v.bindPassword) } : { ...common, clientSecret: v.clientSecret };
}

export const CreateProviderForm = z.preprocess(toCreateInput, CreateProviderInput);

/** Update input for a provider of `type`: secrets left blank keep the saved ones. */
export function updateProviderForm(type: ProviderType) {
  return z.preprocess(
    (v: ProviderFormValues) => {
      const secret = type === "ldap" ? { bindPassword: blank(v.bindPassword) } : { clientSecret: blank(v.clientSecret) };
      return { name: v.name, enabled: v.enabled, autoCreateUsers: v.autoCreateUsers, config: configFor(type, v.config), ...secret };
    },
    UpdateProviderInput.extend({ config: CONFIG_SCHEMA[type] }),
  );
}

/** A URL-safe identifier from a display name ("Corp SSO" -> "corp-sso"). */
export function slugFrom(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
}

/** What the form's resolver hands to submit: the create input (has `type`) or the update input. */
export type ProviderFormOutput = z.output<typeof CreateProviderForm> | z.output<ReturnType<typeof updateProviderForm>>;
