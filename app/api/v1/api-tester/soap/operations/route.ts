// List the SOAP operations of a WSDL.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { soapOperations } from "@/server/services/tester/helpers/soap";

export const POST = defineRoute(e.soapOperations, ({ body }) => soapOperations(body));
