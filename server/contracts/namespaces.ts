import { z } from "zod";
import { MemberRoleSchema, NamespaceName, OkResponse, PermissionSchema, QueryBool, Timestamp, Username } from "./common";
import { endpoint } from "./endpoint";

export const CreateNamespaceInput = z
  .object({
    name: NamespaceName,
    description: z.string().max(500).optional(),
    owner: Username.optional().describe("admin only: the user who owns the new namespace (default: the caller)"),
  })
  .strict();

export const NamespaceView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  role: MemberRoleSchema.nullable().describe("the caller's role; null for an admin who is not a member"),
  permissions: z.array(PermissionSchema),
  createdAt: Timestamp,
});
export const NamespaceList = z.object({ namespaces: z.array(NamespaceView), count: z.number().int() });
/** REST's default list: the names, as every public client decodes `namespaces`. */
export const NamespaceNameList = z.object({ namespaces: z.array(z.string()), count: z.number().int() });
export const ListNamespacesQuery = z.object({ detail: QueryBool.optional().describe("true: rows with id, role, permissions… instead of names") });

/**
 * `namespace` in a JSON body of a namespaced endpoint: names the namespace
 * exactly like `?namespace=` (server/http/body-namespace.ts); "" names none.
 */
export const BodyNamespace = z.string().max(63).optional().describe("names the namespace like ?namespace=; must agree with it when both are given");

export const AdminNamespaceView = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  owner: z.object({ id: z.string(), username: z.string() }).nullable(),
  memberCount: z.number().int(),
  createdAt: Timestamp,
  deletedAt: Timestamp.nullable(),
});
export const AdminNamespaceList = z.object({ namespaces: z.array(AdminNamespaceView), count: z.number().int() });
export const AdminNamespaceQuery = z.object({ includeDeleted: QueryBool.optional(), search: z.string().max(100).optional() });

export const NamespaceParams = z.object({ namespace: NamespaceName });
export const NamespaceUserParams = NamespaceParams.extend({ user_id: z.string().uuid({ message: "must be a UUID" }) });

export const NamespaceMember = z.object({
  userId: z.string(),
  username: z.string(),
  fullName: z.string(),
  email: z.string().nullable(),
  role: MemberRoleSchema,
  disabled: z.boolean(),
  addedAt: Timestamp,
});
export const NamespaceMemberList = z.object({ users: z.array(NamespaceMember), count: z.number().int() });
export const AddMemberInput = z
  .object({
    userId: z.string().uuid().optional(),
    username: Username.optional(),
    role: MemberRoleSchema.default("editor"),
  })
  .strict()
  .refine((v) => Boolean(v.userId) !== Boolean(v.username), "give exactly one of userId or username");
export const SetRoleInput = z.object({ role: MemberRoleSchema }).strict();

const tag = "Namespaces";
const admin = "Administration";

export const namespaceEndpoints = {
  create: endpoint({ method: "POST", path: "/api/v1/namespaces", tag, summary: "Create a namespace; the caller becomes its owner (admins may name another owner)", auth: "user", permission: "write", body: CreateNamespaceInput, response: NamespaceView, successStatus: 201, statuses: { 409: "the namespace exists" } }),
  list: endpoint({ method: "GET", path: "/api/v1/namespaces", tag, summary: "Namespaces the caller can read: their names, or rows with ?detail=true", auth: "user", permission: "read", query: ListNamespacesQuery, response: z.union([NamespaceNameList, NamespaceList]) }),
  adminList: endpoint({ method: "GET", path: "/api/v1/admin/namespaces", tag: admin, summary: "All namespaces with metadata", auth: "admin", query: AdminNamespaceQuery, response: AdminNamespaceList }),
  adminDelete: endpoint({ method: "DELETE", path: "/api/v1/admin/namespaces/{namespace}", tag: admin, summary: "Delete a namespace (restorable)", auth: "admin", params: NamespaceParams, response: AdminNamespaceView }),
  adminRestore: endpoint({ method: "POST", path: "/api/v1/admin/namespaces/{namespace}/restore", tag: admin, summary: "Restore a deleted namespace", auth: "admin", params: NamespaceParams, response: AdminNamespaceView }),
  adminUsers: endpoint({ method: "GET", path: "/api/v1/admin/namespaces/{namespace}/users", tag: admin, summary: "Members of a namespace", auth: "admin", params: NamespaceParams, response: NamespaceMemberList }),
  adminAddUser: endpoint({ method: "POST", path: "/api/v1/admin/namespaces/{namespace}/users", tag: admin, summary: "Add a member (or change the role of an existing one)", auth: "admin", params: NamespaceParams, body: AddMemberInput, response: NamespaceMember, successStatus: 201 }),
  adminRemoveUser: endpoint({ method: "DELETE", path: "/api/v1/admin/namespaces/{namespace}/users/{user_id}", tag: admin, summary: "Remove a member", auth: "admin", params: NamespaceUserParams, response: OkResponse , statuses: { 409: "the namespace would be left without an owner" } }),
  adminSetRole: endpoint({ method: "PUT", path: "/api/v1/admin/namespaces/{namespace}/users/{user_id}/role", tag: admin, summary: "Change a member's role", auth: "admin", params: NamespaceUserParams, body: SetRoleInput, response: NamespaceMember , statuses: { 409: "the namespace would be left without an owner" } }),
} as const;

// Members of the caller's namespace, managed by its owners (and admins) without the admin API.
const members = "Namespace members";
export const memberEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/members", tag: members, summary: "Members of the namespace", auth: "user", namespaced: true, permission: "read", response: NamespaceMemberList }),
  add: endpoint({ method: "POST", path: "/api/v1/members", tag: members, summary: "Add a member or change their role (namespace owners)", auth: "user", namespaced: true, permission: "write", body: AddMemberInput, response: NamespaceMember, successStatus: 201 }),
  setRole: endpoint({ method: "PUT", path: "/api/v1/members/{user_id}", tag: members, summary: "Change a member's role (namespace owners)", auth: "user", namespaced: true, permission: "write", params: z.object({ user_id: z.string().uuid({ message: "must be a UUID" }) }), body: SetRoleInput, response: NamespaceMember , statuses: { 409: "the namespace would be left without an owner" } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/members/{user_id}", tag: members, summary: "Remove a member (namespace owners)", auth: "user", namespaced: true, permission: "delete", params: z.object({ user_id: z.string().uuid({ message: "must be a UUID" }) }), response: OkResponse , statuses: { 409: "the namespace would be left without an owner" } }),
} as const;
