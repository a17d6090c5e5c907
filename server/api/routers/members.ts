// Members of the current namespace, managed by its owners (and admins), as
// REST's /api/v1/members does.
import { z } from "zod";
import { AddMemberInput, SetRoleInput } from "@/server/contracts/namespaces";
import { addMember, assertCanManageMembers, listMembers, removeMember, setMemberRole } from "@/server/services/namespaces";
import { canManageMembers } from "@/server/services/namespace-access";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

const UserId = z.object({ userId: z.string().uuid({ message: "must be a UUID" }) });

export const membersRouter = createTRPCRouter({
  list: nsRead.query(async ({ ctx }) => ({ ...(await listMembers(ctx.scope.name)), canManage: canManageMembers(ctx.actor, ctx.scope) })),
  add: nsWrite.input(z.object({ member: AddMemberInput })).mutation(({ ctx, input }) => {
    assertCanManageMembers(ctx.actor, ctx.scope);
    return addMember(ctx.actor, ctx.scope.name, input.member);
  }),
  setRole: nsWrite.input(UserId.extend(SetRoleInput.shape)).mutation(({ ctx, input }) => {
    assertCanManageMembers(ctx.actor, ctx.scope);
    return setMemberRole(ctx.actor, ctx.scope.name, input.userId, input.role);
  }),
  remove: nsDelete.input(UserId).mutation(({ ctx, input }) => {
    assertCanManageMembers(ctx.actor, ctx.scope);
    return removeMember(ctx.actor, ctx.scope.name, input.userId);
  }),
});
