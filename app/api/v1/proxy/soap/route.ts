// Send a SOAP envelope (given or built from a WSDL operation); a Fault is data.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { proxySoap } from "@/server/services/tester/helpers/soap";

export const POST = defineRoute(e.proxySoap, ({ body, req }) => proxySoap(body, req.signal));
