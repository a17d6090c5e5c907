import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { loadMe, updateProfile } from "@/server/services/auth";

export const GET = defineRoute(authEndpoints.me, ({ actor }) => loadMe(actor.user.id));
export const PATCH = defineRoute(authEndpoints.updateMe, ({ actor, body }) => updateProfile(actor, body));
