import { emailEndpoints } from "@/server/contracts/email";
import { defineRoute } from "@/server/http/define-route";
import { getEmailConfig, saveEmailConfig } from "@/server/services/email";

export const GET = defineRoute(emailEndpoints.getConfig, () => getEmailConfig());
export const PUT = defineRoute(emailEndpoints.putConfig, ({ actor, body }) => saveEmailConfig(actor, body));
