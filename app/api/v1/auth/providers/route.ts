import { identityProviderEndpoints } from "@/server/contracts/identity-providers";
import { defineRoute } from "@/server/http/define-route";
import { listPublicProviders } from "@/server/services/identity-providers";

export const GET = defineRoute(identityProviderEndpoints.publicList, () => listPublicProviders());
