import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteUndefinedRequests, listUndefinedRequests } from "@/server/services/undefined-requests";

export const GET = defineRoute(e.listUndefined, ({ namespace, query }) => listUndefinedRequests(namespace, query));
export const DELETE = defineRoute(e.deleteUndefined, ({ namespace, body }) => deleteUndefinedRequests(namespace, body.ids));
