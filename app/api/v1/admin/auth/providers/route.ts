import { identityProviderEndpoints } from "@/server/contracts/identity-providers";
import { defineRoute } from "@/server/http/define-route";
import { createProvider, listProviders } from "@/server/services/identity-providers";

export const GET = defineRoute(identityProviderEndpoints.list, () => listProviders());
export const POST = defineRoute(identityProviderEndpoints.create, ({ actor, body }) => createProvider(actor, body));
