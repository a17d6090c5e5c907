"use client";
// The protocol helper panels' server calls (components/tester/helpers) wired to
// tRPC's apiTester.helpers.* in the current namespace.
import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTRPC } from "@/app/_trpc/client";
import type { ProtocolHelperApi } from "@/components/tester/helpers/helper-api";

export function useProtocolHelpers(namespace: string | undefined): ProtocolHelperApi {
  const trpc = useTRPC();
  const h = trpc.apiTester.helpers;
  const graphqlIntrospect = useMutation(h.graphqlIntrospect.mutationOptions());
  const grpcDiscover = useMutation(h.grpcDiscover.mutationOptions());
  const proxyGrpc = useMutation(h.proxyGrpc.mutationOptions());
  const soapOperations = useMutation(h.soapOperations.mutationOptions());
  const mcpConnect = useMutation(h.mcpConnect.mutationOptions());
  const mcpToolsList = useMutation(h.mcpToolsList.mutationOptions());
  const mcpToolsCall = useMutation(h.mcpToolsCall.mutationOptions());
  const mcpResourcesList = useMutation(h.mcpResourcesList.mutationOptions());
  // mutateAsync is stable per mutation, so the api object changes only with the namespace.
  const a = graphqlIntrospect.mutateAsync;
  const b = grpcDiscover.mutateAsync;
  const c = proxyGrpc.mutateAsync;
  const d = soapOperations.mutateAsync;
  const e = mcpConnect.mutateAsync;
  const f = mcpToolsList.mutateAsync;
  const g = mcpToolsCall.mutateAsync;
  const i = mcpResourcesList.mutateAsync;
  return useMemo(
    () => ({
      graphqlIntrospect: (call) => a({ namespace, call }),
      grpcDiscover: (call) => b({ namespace, call }),
      proxyGrpc: (call) => c({ namespace, call }),
      soapOperations: (call) => d({ namespace, call }),
      mcpConnect: (call) => e({ namespace, call }),
      mcpToolsList: (call) => f({ namespace, call }),
      mcpToolsCall: (call) => g({ namespace, call }),
      mcpResourcesList: (call) => i({ namespace, call }),
    }),
    [namespace, a, b, c, d, e, f, g, i],
  );
}
