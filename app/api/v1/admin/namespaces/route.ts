import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { adminListNamespaces } from "@/server/services/namespaces";

export const GET = defineRoute(namespaceEndpoints.adminList, ({ query }) => adminListNamespaces(query));
