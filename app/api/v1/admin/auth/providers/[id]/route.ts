import { identityProviderEndpoints } from "@/server/contracts/identity-providers";
import { defineRoute } from "@/server/http/define-route";
import { deleteProvider, updateProvider } from "@/server/services/identity-providers";

export const PUT = defineRoute(identityProviderEndpoints.update, ({ actor, params, body }) => updateProvider(actor, params.id, body));
export const DELETE = defineRoute(identityProviderEndpoints.remove, ({ actor, params }) => deleteProvider(actor, params.id));
