import { identityProviderEndpoints } from "@/server/contracts/identity-providers";
import { defineRoute } from "@/server/http/define-route";
import { testLdapConnection } from "@/server/services/ldap";

export const POST = defineRoute(identityProviderEndpoints.ldapTest, ({ actor, body }) => testLdapConnection(actor, body));
