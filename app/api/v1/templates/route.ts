import { templateEndpoints } from "@/server/contracts/file-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listTemplates } from "@/server/services/templates";

export const GET = defineRoute(templateEndpoints.list, ({ namespace }) => listTemplates(namespace));
