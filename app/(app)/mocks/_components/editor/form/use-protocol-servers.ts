"use client";
// The namespace's protocol servers of some protocols, for the server pickers of SMTP and socket mocks.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/client";
import type { ProtocolServerView, ServerProtocol } from "@/server/contracts/protocol-servers";
import { useNamespace } from "../../../../_components/namespace-context";

export function useProtocolServers(protocols: ServerProtocol[]): { servers: ProtocolServerView[]; loaded: boolean } {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.protocolServers.list.queryOptions({ namespace }, { enabled: !!namespace }));
  return { servers: (list.data?.servers ?? []).filter((s) => protocols.includes(s.protocol)), loaded: list.isSuccess };
}
