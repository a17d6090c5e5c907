import { emailEndpoints } from "@/server/contracts/email";
import { defineRoute } from "@/server/http/define-route";
import { pingEmail } from "@/server/services/email";

export const POST = defineRoute(emailEndpoints.ping, () => pingEmail());
