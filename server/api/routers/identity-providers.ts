// Admin-configured identity providers (OIDC, GitHub, Google, LDAP).
import { IdParams } from "@/server/contracts/common";
import { CreateProviderInput, LdapTestInput, UpdateProviderInput } from "@/server/contracts/identity-providers";
import { createProvider, deleteProvider, listProviders, updateProvider } from "@/server/services/identity-providers";
import { testLdapConnection } from "@/server/services/ldap";
import { adminDeleteProcedure, adminProcedure, createTRPCRouter } from "../trpc";

export const identityProvidersRouter = createTRPCRouter({
  list: adminProcedure.query(() => listProviders()),
  create: adminProcedure.input(CreateProviderInput).mutation(({ ctx, input }) => createProvider(ctx.actor, input)),
  update: adminProcedure
    .input(IdParams.extend({ patch: UpdateProviderInput }))
    .mutation(({ ctx, input }) => updateProvider(ctx.actor, input.id, input.patch)),
  remove: adminDeleteProcedure.input(IdParams).mutation(({ ctx, input }) => deleteProvider(ctx.actor, input.id)),
  testLdap: adminProcedure.input(LdapTestInput).mutation(({ ctx, input }) => testLdapConnection(ctx.actor, input)),
});
