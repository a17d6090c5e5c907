// Integration credentials (runners, CI, other systems): rotating credentials
// created instance-wide by admins or per namespace by its owners.
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { CreateIntegrationInput } from "@/server/contracts/integrations";
import { createRotating, listRotating } from "./credentials";
import { resolveNamespace } from "./namespace-access";
import { assertCanManageMembers } from "./namespaces";

export async function listIntegrations(actor: Actor) {
  const integrations = await listRotating(actor, "integration");
  return { integrations, count: integrations.length };
}

export function createIntegration(actor: Actor, input: z.infer<typeof CreateIntegrationInput>) {
  return createRotating(actor, "integration", input);
}

export async function createNamespaceIntegration(actor: Actor, namespace: string, input: Omit<z.infer<typeof CreateIntegrationInput>, "namespace">) {
  const scope = await resolveNamespace(actor, namespace);
  assertCanManageMembers(actor, scope);
  return createRotating(actor, "integration", { ...input, namespace: scope.name });
}

export { deleteRotating, getRotating, revokeRotating, rotateRotating } from "./credentials";
