"use client";
// Cancelling a test run from any tester page: asks the server (the run stops
// within a second and ends `cancelled`), says so, and refreshes the run lists
// and the run itself so the new status shows without waiting for a poll.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";

export function useCancelRun(namespace: string | undefined) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(
    trpc.apiTester.testRuns.cancel.mutationOptions({
      onSuccess: (run) => {
        toast.success(`Cancelling ${run.name}; it stops within a second`);
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.pathKey() });
      },
      onError: toastError,
    }),
  );
  return {
    cancel: (id: string) => cancel.mutate({ namespace, id }),
    /** The run whose cancel is being asked, while it is. */
    pendingId: cancel.isPending ? (cancel.variables?.id ?? null) : null,
  };
}
