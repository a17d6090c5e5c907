// Procedures that work inside one namespace, resolved exactly as REST's
// defineRoute does: the namespace named in the input (the UI sends the one in
// its `?ns=`), else the credential's pinned one, else `sandbox`; a namespace
// the caller cannot read is 404, a missing permission there 403.
import { z } from "zod";
import type { Permission } from "@/server/contracts/endpoint";
import { resolveNamespaceFor } from "@/server/services/namespace-access";
import { protectedProcedure } from "./trpc";

export const NamespaceSelector = z.object({ namespace: z.string().min(1).max(63).optional() });

export function namespacedProcedure(permission: Permission) {
  return protectedProcedure.input(NamespaceSelector).use(async ({ ctx, input, next }) => {
    const scope = await resolveNamespaceFor(ctx.actor, input.namespace, permission);
    return next({ ctx: { ...ctx, scope } });
  });
}

export const nsRead = namespacedProcedure("read");
export const nsWrite = namespacedProcedure("write");
export const nsDelete = namespacedProcedure("delete");
