// Send one HTTP request from the server, not saved.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { proxyHttp } from "@/server/services/tester/helpers/http";

export const POST = defineRoute(e.proxyHttp, ({ body, req }) => proxyHttp(body, req.signal));
