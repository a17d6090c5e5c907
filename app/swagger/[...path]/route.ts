// Any /swagger/* path (a typo of /swagger or /swagger/doc.json) no other route file serves: a JSON 404 in the error envelope (not Next.js's HTML page).
import { unknownEndpoint } from "@/server/http/unknown-endpoint";

export const dynamic = "force-dynamic";
export { unknownEndpoint as GET, unknownEndpoint as HEAD, unknownEndpoint as OPTIONS, unknownEndpoint as POST, unknownEndpoint as PUT, unknownEndpoint as PATCH, unknownEndpoint as DELETE };
