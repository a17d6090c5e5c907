// G1's service, shared by our mock, the plain grpc-js yardstick and the load
// generator, so all three speak the same bytes.
export const G1_PROTO = `syntax = "proto3";
package bench;
service Greeter { rpc SayHello(HelloRequest) returns (HelloReply); }
message HelloRequest { string name = 1; int32 n = 2; }
message HelloReply { string message = 1; int32 id = 2; bool ok = 3; }
`;
export const G1_METHOD = "/bench.Greeter/SayHello";
export const G1_REQUEST = { name: "bench", n: 7 };
export const G1_REPLY = { message: "hello bench", id: 42, ok: true };
