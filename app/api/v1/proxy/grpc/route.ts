// Call a gRPC method typed by uploaded .proto files or server reflection.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { proxyGrpc } from "@/server/services/tester/helpers/grpc";

export const POST = defineRoute(e.proxyGrpc, ({ namespace, body }) => proxyGrpc(namespace, body));
