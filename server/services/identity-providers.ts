// Admin-configured identity providers: OIDC (generic), GitHub and Google
// presets (all through next-auth), and LDAP (ldapts). Secrets are encrypted.
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import {
  type CreateProviderInput,
  LdapConfig,
  OAuthPresetConfig,
  OidcConfig,
  type ProviderView,
  type UpdateProviderInput,
} from "@/server/contracts/identity-providers";
import { db, type IdentityProvider, Prisma } from "@/server/db/client";
import { publicUrl } from "@/server/env";
import { errors } from "@/server/errors";
import { decryptSecret, encryptSecret } from "@/server/lib/crypto";
import { validationError } from "@/server/validation-error";
import { recordAudit } from "./audit";

export type ProviderType = ProviderView["type"];

const CONFIG_SCHEMA = { oidc: OidcConfig, github: OAuthPresetConfig, google: OAuthPresetConfig, ldap: LdapConfig } as const;

export function oauthLoginUrl(slug: string) {
  return `${publicUrl()}/api/v1/auth/oauth/login/${slug}`;
}

export function providerView(p: IdentityProvider): ProviderView {
  const type = p.type as ProviderType;
  return {
    id: p.id,
    slug: p.slug,
    type,
    name: p.name,
    enabled: p.enabled,
    autoCreateUsers: p.autoCreateUsers,
    config: p.config as Record<string, unknown>,
    hasSecret: Boolean(p.secretEnc),
    loginUrl: type === "ldap" ? null : oauthLoginUrl(p.slug),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

export function providerSecret(p: IdentityProvider): string | null {
  return p.secretEnc ? decryptSecret(p.secretEnc) : null;
}

export async function listProviders() {
  const rows = await db().identityProvider.findMany({ orderBy: { name: "asc" } });
  return { providers: rows.map(providerView), count: rows.length };
}

export async function listPublicProviders() {
  const rows = await db().identityProvider.findMany({ where: { enabled: true }, orderBy: { name: "asc" } });
  return { providers: rows.map((p) => ({ slug: p.slug, type: p.type, name: p.name, loginUrl: p.type === "ldap" ? null : oauthLoginUrl(p.slug) })) };
}

export async function findEnabledProvider(slug: string, type?: ProviderType | ProviderType[]) {
  const p = await db().identityProvider.findUnique({ where: { slug } });
  const types = type === undefined ? undefined : Array.isArray(type) ? type : [type];
  if (!p || !p.enabled || (types && !types.includes(p.type as ProviderType))) throw errors.notFound("Identity provider");
  return p;
}

export async function createProvider(actor: Actor, input: CreateProviderInput) {
  const secret = "clientSecret" in input ? input.clientSecret : input.bindPassword;
  try {
    const row = await db().identityProvider.create({
      data: {
        slug: input.slug,
        type: input.type,
        name: input.name,
        enabled: input.enabled,
        autoCreateUsers: input.autoCreateUsers,
        config: input.config as Prisma.InputJsonValue,
        secretEnc: secret ? encryptSecret(secret) : null,
      },
    });
    await recordAudit({ actor, action: "admin.identity_provider_create", targetType: "identity_provider", targetId: row.id, details: { slug: row.slug, type: row.type } });
    return providerView(row);
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw errors.conflict(`A provider with slug '${input.slug}' exists`, [{ location: "body", field: "slug", message: "already taken" }]);
    }
    throw err;
  }
}

export async function updateProvider(actor: Actor, id: string, input: z.infer<typeof UpdateProviderInput>) {
  const current = await db().identityProvider.findUnique({ where: { id } });
  if (!current) throw errors.notFound("Identity provider");
  const type = current.type as ProviderType;
  let config: Prisma.InputJsonValue | undefined;
  if (input.config) {
    const merged = CONFIG_SCHEMA[type].safeParse({ ...(current.config as object), ...input.config });
    if (!merged.success) throw validationError(merged.error, "body", ["config"]);
    config = merged.data as Prisma.InputJsonValue;
  }
  const secret = type === "ldap" ? input.bindPassword : input.clientSecret;
  const row = await db().identityProvider.update({
    where: { id },
    data: {
      name: input.name,
      enabled: input.enabled,
      autoCreateUsers: input.autoCreateUsers,
      config,
      ...(secret !== undefined ? { secretEnc: secret ? encryptSecret(secret) : null } : {}),
    },
  });
  await recordAudit({ actor, action: "admin.identity_provider_update", targetType: "identity_provider", targetId: id, details: { fields: Object.keys(input) } });
  return providerView(row);
}

export async function deleteProvider(actor: Actor, id: string) {
  const current = await db().identityProvider.findUnique({ where: { id } });
  if (!current) throw errors.notFound("Identity provider");
  await db().identityProvider.delete({ where: { id } });
  await recordAudit({ actor, action: "admin.identity_provider_delete", targetType: "identity_provider", targetId: id, details: { slug: current.slug } });
  return { ok: true as const };
}
