// The yardstick for G1: a plain @grpc/grpc-js server, written as its users
// write one (proto-loader definitions, an object reply), answering the
// message our mock answers.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { G1_PROTO, G1_REPLY } from "./proto";

const dir = mkdtempSync(path.join(os.tmpdir(), "polymock-g1-"));
writeFileSync(path.join(dir, "greeter.proto"), G1_PROTO);
const def = protoLoader.loadSync("greeter.proto", { includeDirs: [dir] });
const { bench } = grpc.loadPackageDefinition(def) as unknown as { bench: { Greeter: grpc.ServiceClientConstructor } };
const server = new grpc.Server();
server.addService(bench.Greeter.service, { SayHello: (_call: unknown, done: grpc.sendUnaryData<unknown>) => done(null, G1_REPLY) });
server.bindAsync(`127.0.0.1:${process.argv[2]}`, grpc.ServerCredentials.createInsecure(), (err) => {
  if (err) throw err;
  process.stdout.write("ready\n");
});
