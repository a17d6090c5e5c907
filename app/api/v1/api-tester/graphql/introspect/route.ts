// Introspect a GraphQL endpoint.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { introspectGraphql } from "@/server/services/tester/helpers/graphql";

export const POST = defineRoute(e.graphqlIntrospect, ({ body, req }) => introspectGraphql(body, req.signal));
