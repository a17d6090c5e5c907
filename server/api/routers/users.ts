// Administration of user accounts.
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { AdminUserQuery, CreateUserInput, SetPasswordInput, UpdateUserInput } from "@/server/contracts/users";
import { createUser, deleteUser, listUsers, setUserDisabled, setUserPassword, updateUser } from "@/server/services/users";
import { adminDeleteProcedure, adminProcedure, createTRPCRouter } from "../trpc";

export const usersRouter = createTRPCRouter({
  list: adminProcedure.input(AdminUserQuery).query(({ input }) => listUsers(input)),
  create: adminProcedure.input(CreateUserInput).mutation(({ ctx, input }) => createUser(ctx.actor, input)),
  update: adminProcedure
    .input(IdParams.extend({ patch: UpdateUserInput }))
    .mutation(({ ctx, input }) => updateUser(ctx.actor, input.id, input.patch)),
  remove: adminDeleteProcedure.input(IdParams).mutation(({ ctx, input }) => deleteUser(ctx.actor, input.id)),
  setPassword: adminProcedure
    .input(IdParams.extend(SetPasswordInput.shape))
    .mutation(({ ctx, input }) => setUserPassword(ctx.actor, input.id, input.password)),
  setDisabled: adminProcedure
    .input(IdParams.extend({ disabled: z.boolean() }))
    .mutation(({ ctx, input }) => setUserDisabled(ctx.actor, input.id, input.disabled)),
});
