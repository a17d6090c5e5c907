// gRPC mocks (served by the protocol runner, protocol-runner/grpc): a mock
// sits on the route "/<grpc.service>/<grpc.method>", the call's HTTP/2 path,
// and matches by `grpc.conditions` over the request message (for client
// streams, the list of messages) and by `grpc.meta` over the call's metadata.
import type { Placer } from "./placement";

export const placeGrpc: Placer = (def) => {
  const grpc = def.grpc;
  if (!grpc) return null;
  return { route: grpcRoute(grpc.service, grpc.method), selector: null, conditions: { conditions: grpc.conditions, header: grpc.meta, sortArray: grpc.sortArray } };
};

/** A service given with a leading dot (".acme.Greeter") is the same service. */
export function grpcRoute(service: string, method: string): string {
  return `/${service.replace(/^\./, "")}/${method}`;
}
