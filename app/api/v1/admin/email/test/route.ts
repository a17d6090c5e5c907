import { emailEndpoints } from "@/server/contracts/email";
import { defineRoute } from "@/server/http/define-route";
import { sendTestEmail } from "@/server/services/email";

export const POST = defineRoute(emailEndpoints.test, ({ actor, body }) => sendTestEmail(actor, body.to));
