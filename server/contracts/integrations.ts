import { z } from "zod";
import { IdParams, NamespaceName, OkResponse, PermissionSchema } from "./common";
import { DelegatedView } from "./auth";
import { endpoint } from "./endpoint";

export const CreateIntegrationInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    namespace: NamespaceName.nullable().optional().describe("pin to one namespace; absent: instance-wide (admins only)"),
    permissions: z.array(PermissionSchema).min(1).default(["read"]),
  })
  .strict();
export const CreateNamespaceIntegrationInput = CreateIntegrationInput.omit({ namespace: true });

export const IntegrationView = DelegatedView;
export const CreatedIntegrationOutput = IntegrationView.extend({ token: z.string().describe("the secret; shown only in this response") });
export const IntegrationList = z.object({ integrations: z.array(IntegrationView), count: z.number().int() });

const tag = "Integrations";
export const integrationEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/integrations", tag, summary: "Integration credentials the caller may manage", auth: "user", permission: "read", response: IntegrationList }),
  create: endpoint({ method: "POST", path: "/api/v1/integrations", tag, summary: "Create an integration credential (expires after 90 days)", auth: "admin", body: CreateIntegrationInput, response: CreatedIntegrationOutput, successStatus: 201 }),
  createForNamespace: endpoint({ method: "POST", path: "/api/v1/integrations/namespace/{ns}", tag, summary: "Create an integration pinned to a namespace (namespace owners)", auth: "user", permission: "write", params: z.object({ ns: NamespaceName }), body: CreateNamespaceIntegrationInput, response: CreatedIntegrationOutput, successStatus: 201 }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/integrations/{id}", tag, summary: "Delete an integration credential", auth: "user", permission: "delete", params: IdParams, response: OkResponse }),
  revoke: endpoint({ method: "POST", path: "/api/v1/integrations/{id}/revoke", tag, summary: "Revoke an integration credential", auth: "user", permission: "write", params: IdParams, response: IntegrationView }),
  rotate: endpoint({ method: "POST", path: "/api/v1/integrations/{id}/rotate", tag, summary: "Replace the bearer; restarts the 90 days", auth: "user", permission: "write", params: IdParams, response: CreatedIntegrationOutput }),
} as const;
