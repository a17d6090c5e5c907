import { z } from "zod";
import { Email, IdParams, MemberRoleSchema, NamespaceName, OkResponse, Password, PermissionSchema, Timestamp, UserRoleSchema } from "./common";
import { endpoint } from "./endpoint";

// ---- Schemas ---------------------------------------------------------------

export const LoginInput = z.object({ username: z.string().min(1).max(256), password: z.string().min(1).max(256) });

export const MeOutput = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  fullName: z.string(),
  role: UserRoleSchema,
  authSource: z.enum(["local", "ldap", "oidc"]),
  disabled: z.boolean(),
  createdAt: Timestamp,
  lastLoginAt: Timestamp.nullable(),
  namespaces: z.array(z.object({ name: z.string(), role: MemberRoleSchema })),
});
export type MeOutput = z.infer<typeof MeOutput>;

export const LoginOutput = z.object({ user: MeOutput, expiresAt: Timestamp });

export const UpdateProfileInput = z
  .object({ fullName: z.string().max(200).optional(), email: Email.nullable().optional() })
  .strict();

export const ChangePasswordInput = z.object({ currentPassword: z.string().min(1).max(256), newPassword: Password });

export const ExpiryFields = {
  /** Absolute expiry; null or absent means the token never expires. */
  expiresAt: z.string().datetime({ offset: true }).nullable().optional(),
  /** Relative expiry, an alternative to expiresAt. */
  expiresInDays: z.number().int().min(1).max(3650).optional(),
};

export const CreateTokenInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    permissions: z.array(PermissionSchema).min(1).default(["read", "write"]),
    namespace: NamespaceName.nullable().optional().describe("pin the token to this namespace"),
    ...ExpiryFields,
  })
  .strict();
export type CreateTokenInput = z.infer<typeof CreateTokenInput>;

export const UpdateTokenInput = z
  .object({ name: z.string().trim().min(1).max(100).optional(), ...ExpiryFields })
  .strict()
  .refine((v) => Object.keys(v).length > 0, "give name, expiresAt or expiresInDays");

export const CredentialStatus = z.enum(["active", "expired", "revoked"]);

export const TokenView = z.object({
  id: z.string(),
  kind: z.enum(["api_token", "delegated", "integration"]),
  name: z.string(),
  prefix: z.string().describe("first characters of the secret, to recognise it"),
  permissions: z.array(PermissionSchema),
  namespace: z.string().nullable(),
  expiresAt: Timestamp.nullable(),
  createdAt: Timestamp,
  lastUsedAt: Timestamp.nullable(),
  revokedAt: Timestamp.nullable(),
  rotatedAt: Timestamp.nullable(),
  status: CredentialStatus,
  owner: z.object({ id: z.string(), username: z.string() }),
});
export type TokenView = z.infer<typeof TokenView>;

export const CreatedTokenOutput = TokenView.extend({
  token: z.string().describe("the secret; shown only in this response"),
});

export const TokenList = z.object({ tokens: z.array(TokenView), count: z.number().int() });

export const CreateDelegatedInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    namespace: NamespaceName.describe("the project (namespace) the credential is frozen to"),
    permissions: z.array(PermissionSchema).min(1).default(["read"]),
  })
  .strict();

export const DelegatedView = TokenView.extend({ credentialExpiresAt: Timestamp });
export const CreatedDelegatedOutput = DelegatedView.extend({ token: z.string() });
export const DelegatedList = z.object({ credentials: z.array(DelegatedView), count: z.number().int() });

export const ForgotPasswordInput = z.object({ email: z.string().trim().email().max(254) }).strict();
export const ResetPasswordInput = z.object({ token: z.string().min(10).max(200), newPassword: Password }).strict();
export const VerifyEmailQuery = z.object({ token: z.string().min(10).max(200) });
export const AcceptedOutput = z.object({ accepted: z.literal(true), message: z.string() });

export const LdapLoginInput = LoginInput.extend({ provider: z.string().max(64).optional().describe("slug of the LDAP provider; default: the first enabled one") });

export const OAuthLoginParams = z.object({ provider: z.string().min(1).max(64) });
export const OAuthLoginQuery = z.object({ callbackUrl: z.string().max(2000).optional() });

// ---- Endpoints -------------------------------------------------------------

const tag = "Authentication";
const TokenIdParams = IdParams;

export const authEndpoints = {
  login: endpoint({ method: "POST", path: "/api/v1/auth/login", tag, summary: "Log in with username and password; sets the session cookie", auth: "none", rateLimit: "auth", body: LoginInput, response: LoginOutput }),
  logout: endpoint({ method: "POST", path: "/api/v1/auth/logout", tag, summary: "End the current session", auth: "user", response: OkResponse }),
  me: endpoint({ method: "GET", path: "/api/v1/auth/me", tag, summary: "The current user", auth: "user", response: MeOutput }),
  updateMe: endpoint({ method: "PATCH", path: "/api/v1/auth/me", tag, summary: "Update own profile (full name, e-mail; a new e-mail must be verified)", auth: "user", permission: "write", body: UpdateProfileInput, response: MeOutput , statuses: { 409: "the e-mail address is used by another account" } }),
  changePassword: endpoint({ method: "POST", path: "/api/v1/auth/change-password", tag, summary: "Change own password (ends the user's other sessions)", auth: "user", permission: "write", body: ChangePasswordInput, response: OkResponse }),
  createToken: endpoint({ method: "POST", path: "/api/v1/auth/tokens", tag, summary: "Create an API token; the secret is returned once", auth: "user", permission: "write", body: CreateTokenInput, response: CreatedTokenOutput, successStatus: 201 }),
  listTokens: endpoint({ method: "GET", path: "/api/v1/auth/tokens", tag, summary: "List own API tokens", auth: "user", permission: "read", response: TokenList }),
  getToken: endpoint({ method: "GET", path: "/api/v1/auth/tokens/{id}", tag, summary: "Token details", auth: "user", permission: "read", params: TokenIdParams, response: TokenView }),
  updateToken: endpoint({ method: "PATCH", path: "/api/v1/auth/tokens/{id}", tag, summary: "Rename a token or change its expiry", auth: "user", permission: "write", params: TokenIdParams, body: UpdateTokenInput, response: TokenView , statuses: { 409: "the token is revoked" } }),
  revokeToken: endpoint({ method: "DELETE", path: "/api/v1/auth/tokens/{id}", tag, summary: "Revoke a token", auth: "user", permission: "write", params: TokenIdParams, response: TokenView }),
  createDelegated: endpoint({ method: "POST", path: "/api/v1/auth/delegated-credentials", tag, summary: "Issue a namespace-scoped delegated credential (expires after 90 days)", auth: "user", permission: "write", body: CreateDelegatedInput, response: CreatedDelegatedOutput, successStatus: 201 }),
  listDelegated: endpoint({ method: "GET", path: "/api/v1/auth/delegated-credentials", tag, summary: "Delegated credentials the caller may manage", auth: "user", permission: "read", response: DelegatedList }),
  getDelegated: endpoint({ method: "GET", path: "/api/v1/auth/delegated-credentials/{id}", tag, summary: "One delegated credential", auth: "user", permission: "read", params: IdParams, response: DelegatedView }),
  rotateDelegated: endpoint({ method: "POST", path: "/api/v1/auth/delegated-credentials/{id}/rotate", tag, summary: "Replace the bearer, keeping the frozen scope; restarts the 90 days", auth: "user", permission: "write", params: IdParams, response: CreatedDelegatedOutput , statuses: { 409: "the credential is revoked" } }),
  revokeDelegated: endpoint({ method: "DELETE", path: "/api/v1/auth/delegated-credentials/{id}", tag, summary: "Revoke permanently", auth: "user", permission: "write", params: IdParams, response: DelegatedView }),
  ldapLogin: endpoint({ method: "POST", path: "/api/v1/auth/ldap/login", tag, summary: "Log in against the configured LDAP directory; sets the session cookie", auth: "none", rateLimit: "auth", body: LdapLoginInput, response: LoginOutput , statuses: { 409: "the username belongs to an account that does not sign in with LDAP", 503: "the LDAP directory cannot be reached" } }),
  oauthLogin: endpoint({ method: "GET", path: "/api/v1/auth/oauth/login/{provider}", tag, summary: "Start the OAuth/OIDC flow of a configured provider: answers a page that posts next-auth's sign-in form (works without JavaScript)", auth: "none", params: OAuthLoginParams, query: OAuthLoginQuery, produces: "text/html" }),
  forgotPassword: endpoint({ method: "POST", path: "/api/v1/auth/forgot-password", tag, summary: "Send a password-reset e-mail: 202 whether or not the address is known; 503 for every address while e-mail is not configured", auth: "none", rateLimit: "auth", body: ForgotPasswordInput, response: AcceptedOutput, successStatus: 202 , statuses: { 503: "e-mail is not configured" } }),
  resetPassword: endpoint({ method: "POST", path: "/api/v1/auth/reset-password", tag, summary: "Set a new password with the token from the reset e-mail", auth: "none", rateLimit: "auth", body: ResetPasswordInput, response: OkResponse }),
  verifyEmail: endpoint({ method: "GET", path: "/api/v1/auth/verify-email", tag, summary: "Verify an e-mail address with the token from the verification e-mail", auth: "none", rateLimit: "auth", query: VerifyEmailQuery, response: OkResponse }),
  resendVerification: endpoint({ method: "POST", path: "/api/v1/auth/verify-email", tag, summary: "Send the verification e-mail again to the current user's address", auth: "user", permission: "write", response: AcceptedOutput, successStatus: 202 , statuses: { 409: "the address is already verified", 503: "e-mail is not configured" } }),
} as const;

