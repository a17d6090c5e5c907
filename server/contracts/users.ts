import { z } from "zod";
import { Email, IdParams, OkResponse, Password, QueryBool, UserRoleSchema, Username } from "./common";
import { MeOutput } from "./auth";
import { endpoint } from "./endpoint";

/** The user as an admin sees it: the profile fields of /auth/me, with a count instead of the namespace list. */
export const AdminUserView = MeOutput.omit({ namespaces: true }).extend({ namespaceCount: z.number().int() });
export type AdminUserView = z.infer<typeof AdminUserView>;
export const AdminUserList = z.object({ users: z.array(AdminUserView), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });
export const AdminUserQuery = z.object({
  search: z.string().max(100).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  includeDisabled: QueryBool.optional(),
});

export const CreateUserInput = z
  .object({
    username: Username,
    password: Password.optional().describe("absent: the user signs in through LDAP/OIDC or a reset e-mail"),
    email: Email.nullable().optional(),
    fullName: z.string().max(200).optional(),
    role: UserRoleSchema.default("user"),
    namespaces: z.array(z.object({ name: z.string(), role: z.enum(["owner", "editor", "viewer"]) })).max(100).optional(),
  })
  .strict();
export type CreateUserInput = z.infer<typeof CreateUserInput>;

export const UpdateUserInput = z
  .object({
    username: Username.optional(),
    email: Email.nullable().optional(),
    fullName: z.string().max(200).optional(),
    role: UserRoleSchema.optional(),
  })
  .strict();

export const SetPasswordInput = z.object({ password: Password }).strict();

const tag = "Administration";
export const userEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/admin/users", tag, summary: "List users", auth: "admin", query: AdminUserQuery, response: AdminUserList }),
  create: endpoint({ method: "POST", path: "/api/v1/admin/users", tag, summary: "Create a user", auth: "admin", body: CreateUserInput, response: AdminUserView, successStatus: 201 , statuses: { 409: "the username or e-mail is taken" } }),
  update: endpoint({ method: "PUT", path: "/api/v1/admin/users/{id}", tag, summary: "Update a user", auth: "admin", params: IdParams, body: UpdateUserInput, response: AdminUserView , statuses: { 409: "the username or e-mail is taken, or it would remove the last active admin" } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/admin/users/{id}", tag, summary: "Delete a user (their sessions and tokens go with them)", auth: "admin", params: IdParams, response: OkResponse , statuses: { 409: "your own account, or the last active admin" } }),
  setPassword: endpoint({ method: "PUT", path: "/api/v1/admin/users/{id}/password", tag, summary: "Set a user's password (ends their sessions)", auth: "admin", params: IdParams, body: SetPasswordInput, response: OkResponse }),
  disable: endpoint({ method: "POST", path: "/api/v1/admin/users/{id}/disable", tag, summary: "Disable a user: sessions end, tokens stop working", auth: "admin", params: IdParams, response: AdminUserView , statuses: { 409: "your own account, or the last active admin" } }),
  enable: endpoint({ method: "POST", path: "/api/v1/admin/users/{id}/enable", tag, summary: "Enable a user", auth: "admin", params: IdParams, response: AdminUserView }),
} as const;
