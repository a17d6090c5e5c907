// List a gRPC server's services through server reflection.
import { testerHelperEndpoints as e } from "@/server/contracts/tester-helpers";
import { defineRoute } from "@/server/http/define-route";
import { discoverGrpc } from "@/server/services/tester/helpers/grpc";

export const POST = defineRoute(e.grpcDiscover, ({ body }) => discoverGrpc(body));
