// Namespaces the caller can see (for the switcher), creation, and the admin
// pages' namespace and member management.
import {
  AddMemberInput,
  AdminNamespaceQuery,
  CreateNamespaceInput,
  NamespaceParams,
  NamespaceUserParams,
  SetRoleInput,
} from "@/server/contracts/namespaces";
import {
  addMember,
  adminDeleteNamespace,
  adminListNamespaces,
  adminRestoreNamespace,
  createNamespace,
  listMembers,
  listNamespaces,
  removeMember,
  setMemberRole,
} from "@/server/services/namespaces";
import { adminDeleteProcedure, adminProcedure, createTRPCRouter, permissionProcedure } from "../trpc";

export const namespacesRouter = createTRPCRouter({
  list: permissionProcedure("read").query(({ ctx }) => listNamespaces(ctx.actor)),
  create: permissionProcedure("write")
    .input(CreateNamespaceInput)
    .mutation(({ ctx, input }) => createNamespace(ctx.actor, input)),

  admin: createTRPCRouter({
    list: adminProcedure.input(AdminNamespaceQuery).query(({ input }) => adminListNamespaces(input)),
    remove: adminDeleteProcedure.input(NamespaceParams).mutation(({ ctx, input }) => adminDeleteNamespace(ctx.actor, input.namespace)),
    restore: adminProcedure.input(NamespaceParams).mutation(({ ctx, input }) => adminRestoreNamespace(ctx.actor, input.namespace)),
    members: adminProcedure.input(NamespaceParams).query(({ input }) => listMembers(input.namespace)),
    addMember: adminProcedure
      .input(NamespaceParams.extend({ member: AddMemberInput }))
      .mutation(({ ctx, input }) => addMember(ctx.actor, input.namespace, input.member)),
    setRole: adminProcedure
      .input(NamespaceUserParams.extend(SetRoleInput.shape))
      .mutation(({ ctx, input }) => setMemberRole(ctx.actor, input.namespace, input.user_id, input.role)),
    removeMember: adminDeleteProcedure
      .input(NamespaceUserParams)
      .mutation(({ ctx, input }) => removeMember(ctx.actor, input.namespace, input.user_id)),
  }),
});
