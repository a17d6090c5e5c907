// The runner's TCP and UDP module: one listener per tcp/udp protocol server
// (lifecycle in ../listener-module.ts).
import { optionsFor } from "@/server/contracts/protocol-servers";
import { listenerModule } from "../listener-module";
import type { ProtocolModule } from "../module";
import { startTcpListener } from "./tcp-listener";
import { startUdpListener } from "./udp-listener";

export function socketModule(defaultHost: string): ProtocolModule {
  return listenerModule(
    {
      name: "socket",
      protocols: ["tcp", "udp"],
      fingerprint: (row, host) => [host, row.options],
      start: (row, host, port, onFailure) => {
        const common = { host, port, namespace: row.namespace.name, serverName: row.name, onFailure };
        return row.protocol === "udp" ? startUdpListener(common) : startTcpListener({ ...common, options: optionsFor("tcp", row.options) });
      },
    },
    defaultHost,
  );
}
