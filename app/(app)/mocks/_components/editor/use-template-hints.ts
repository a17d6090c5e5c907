"use client";
// Feeds the `$.fake.<Name>` generator names from the server to the editors'
// completion provider; without them `$.fake.` would suggest nothing.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { setFakeNames } from "@/components/code/monaco-loader";

export function useTemplateHints() {
  const trpc = useTRPC();
  const hints = useQuery(trpc.mocks.templateHints.queryOptions(undefined, { staleTime: Infinity }));
  useEffect(() => {
    if (hints.data) setFakeNames(hints.data.fakeNames);
  }, [hints.data]);
}
