// Sharing API tester collections (spec 02-modules, "API tester: collections",
// sharing rows and "Sharing rules") and the people lookup the Share dialog
// searches with ("People lookup"). Browser-safe: the dialog's forms use them.
import { z } from "zod";
import { IdParams, NamespaceName, OkResponse, Timestamp } from "./common";
import { endpoint } from "./endpoint";

export const ShareRole = z.enum(["viewer", "editor"]);
export type ShareRole = z.infer<typeof ShareRole>;

const Uuid = z.string().uuid({ message: "must be a UUID" });
const BodyNamespace = NamespaceName.optional().describe("names the caller's namespace, like ?namespace=; must agree with it when both are given");
/** Users or Spaces one sharing call may name. */
export const MAX_SHARE_TARGETS = 100;
export const PEOPLE_SEARCH_DEFAULT = 20;
export const PEOPLE_SEARCH_MAX = 100;
export const PEOPLE_LOOKUP_MAX = 200;

/**
 * Two spellings, both accepted: `users: [{userId, role}]` (a role per user)
 * or `userIds` with one `role` for all (default viewer). Given both, the
 * entries are merged; a user named twice keeps the last role.
 */
export const ShareUsersInput = z
  .object({
    users: z.array(z.object({ userId: Uuid, role: ShareRole.default("viewer") }).strict()).max(MAX_SHARE_TARGETS).optional(),
    userIds: z.array(Uuid).max(MAX_SHARE_TARGETS).optional(),
    role: ShareRole.optional().describe("role for every id in userIds (default viewer)"),
    namespace: BodyNamespace,
  })
  .strict()
  .refine((b) => (b.users?.length ?? 0) + (b.userIds?.length ?? 0) > 0, { message: "name at least one user in users or userIds", path: ["users"] });
export type ShareUsersInput = z.infer<typeof ShareUsersInput>;

const SpaceTarget = z.union([NamespaceName, z.object({ namespace: NamespaceName, role: ShareRole.default("viewer") }).strict()]);
/** `namespaces`: names, or {namespace, role} entries; `role` applies to plain names (default viewer). */
export const ShareSpacesInput = z
  .object({
    namespaces: z.array(SpaceTarget).min(1, "name at least one Space").max(MAX_SHARE_TARGETS),
    role: ShareRole.optional().describe("role for plain names (default viewer); members of a Space can view and copy, never run, whatever the role"),
    namespace: BodyNamespace,
  })
  .strict();
export type ShareSpacesInput = z.infer<typeof ShareSpacesInput>;

export const SetShareRoleInput = z.object({ role: ShareRole, namespace: BodyNamespace }).strict();

export const Person = z.object({
  id: z.string().uuid(),
  username: z.string(),
  fullName: z.string(),
  email: z.string().optional(),
  avatarUrl: z.string().optional(),
});
export type Person = z.infer<typeof Person>;

export const UserShare = Person.extend({
  userId: z.string().uuid(),
  role: ShareRole,
  grantedBy: z.string().nullable().describe("username of who shared"),
  createdAt: Timestamp,
});
export type UserShare = z.infer<typeof UserShare>;

export const SpaceShare = z.object({
  namespace: z.string(),
  role: ShareRole,
  grantedBy: z.string().nullable(),
  createdAt: Timestamp,
});
export type SpaceShare = z.infer<typeof SpaceShare>;

export const UserShareList = z.object({ users: z.array(UserShare) });
export const SpaceShareList = z.object({ spaces: z.array(SpaceShare) });

export const UserShareParams = IdParams.extend({ userId: Uuid });
export const SpaceShareParams = IdParams.extend({ namespace: NamespaceName });

export const PeopleSearchQuery = z.object({
  q: z.string().max(200).optional().describe("part of the username, full name or email, any case"),
  limit: z.coerce.number().int().min(1).max(PEOPLE_SEARCH_MAX, `at most ${PEOPLE_SEARCH_MAX}`).default(PEOPLE_SEARCH_DEFAULT),
});
export const PeopleLookupInput = z
  .object({
    userIds: z.array(z.string().max(100)).max(PEOPLE_LOOKUP_MAX, `at most ${PEOPLE_LOOKUP_MAX} ids`),
    namespace: BodyNamespace,
  })
  .strict();
export const PeopleList = z.object({ users: z.array(Person) });

const tag = "API tester: sharing";
const ns = { auth: "user", namespaced: true } as const;
const IN_TRASH = "the collection is in the trash (restore it first)";
const CROSS = "the collection is shared from another Space (manage its sharing there), or a viewer tried to grant edit rights";
const explicit = {
  auth: "user",
  namespaced: "when-named",
  namespaceFallback: "the pinned token's namespace; without one the request is refused (400): people are looked up in an explicit Space",
} as const;

export const testerSharingEndpoints = {
  shareUsers: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/sharing/users", tag, summary: "Share a collection with members of its Space (viewer or editor); answers every current user share", ...ns, permission: "read", params: IdParams, body: ShareUsersInput, response: UserShareList, statuses: { 403: CROSS, 409: IN_TRASH } }),
  shareSpaces: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/sharing/spaces", tag, summary: "Share a collection into other Spaces the caller can read (view and copy there, never run); answers every current Space share", ...ns, permission: "read", params: IdParams, body: ShareSpacesInput, response: SpaceShareList, statuses: { 403: CROSS, 409: IN_TRASH } }),
  listUsers: endpoint({ method: "GET", path: "/api/v1/api-tester/collections/{id}/users", tag, summary: "The collection's current user shares (grants of removed or disabled members are not listed: they no longer count)", ...ns, permission: "read", params: IdParams, response: UserShareList, statuses: { 403: CROSS } }),
  setUserRole: endpoint({ method: "PUT", path: "/api/v1/api-tester/collections/{id}/users/{userId}/role", tag, summary: "Change a user share's role", ...ns, permission: "read", params: UserShareParams, body: SetShareRoleInput, response: UserShare, statuses: { 403: CROSS, 404: "no such share, collection or namespace", 409: IN_TRASH } }),
  removeUser: endpoint({ method: "DELETE", path: "/api/v1/api-tester/collections/{id}/users/{userId}", tag, summary: "Remove a user share", ...ns, permission: "read", params: UserShareParams, response: OkResponse, statuses: { 403: CROSS, 404: "no such share, collection or namespace", 409: IN_TRASH } }),
  listSpaces: endpoint({ method: "GET", path: "/api/v1/api-tester/collections/{id}/spaces", tag, summary: "The Spaces the collection is shared into", ...ns, permission: "read", params: IdParams, response: SpaceShareList, statuses: { 403: CROSS } }),
  removeSpace: endpoint({ method: "DELETE", path: "/api/v1/api-tester/collections/{id}/spaces/{namespace}", tag, summary: "Stop sharing a collection into a Space", ...ns, permission: "read", params: SpaceShareParams, response: OkResponse, statuses: { 403: CROSS, 404: "no such share, collection or namespace", 409: IN_TRASH } }),
  searchPeople: endpoint({ method: "GET", path: "/api/v1/api-tester/users/search", tag, summary: "Enabled members of a Space whose username, full name or email contains q", ...explicit, permission: "read", query: PeopleSearchQuery, response: PeopleList, statuses: { 400: "no Space named (query namespace, X-Service-Namespace or a pinned token)" } }),
  lookupPeople: endpoint({ method: "POST", path: "/api/v1/users/lookup", tag, summary: "Members of a Space by id; unknown, foreign, disabled and deleted ids are left out", ...explicit, permission: "read", body: PeopleLookupInput, response: PeopleList, statuses: { 400: "no Space named (query namespace, X-Service-Namespace or a pinned token), or more than 200 ids" } }),
} as const;
