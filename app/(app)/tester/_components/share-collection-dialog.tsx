"use client";
// The Share dialog wired to the API: current shares, people search in the
// collection's Space, and every change through apiTester.sharing (the same
// services as REST). A failed change stays on screen as the API said it.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { ShareDialog } from "@/components/tester/share-dialog";
import { useNamespace } from "../../_components/namespace-context";

export function ShareCollectionDialog({ collection, onClose }: { collection: { id: string; name: string } | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, namespaces } = useNamespace();
  const namespace = current?.name;
  const open = !!collection && !!namespace;
  const id = collection?.id ?? "";
  const [text, setText] = useState("");
  const [error, setError] = useState<unknown>(null);

  const users = useQuery(trpc.apiTester.sharing.users.queryOptions({ namespace, id }, { enabled: open }));
  const spaces = useQuery(trpc.apiTester.sharing.spaces.queryOptions({ namespace, id }, { enabled: open }));
  const people = useQuery(trpc.apiTester.sharing.searchPeople.queryOptions({ namespace, q: text, limit: 20 }, { enabled: open && text.length > 0 }));

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiTester.sharing.pathKey() });
  const handlers = (done?: string) => ({
    onMutate: () => setError(null),
    onError: (err: unknown) => setError(err),
    onSuccess: () => {
      if (done) toast.success(done);
      void refresh();
    },
  });
  const shareUsers = useMutation(trpc.apiTester.sharing.shareUsers.mutationOptions(handlers("Shared")));
  const shareSpaces = useMutation(trpc.apiTester.sharing.shareSpaces.mutationOptions(handlers("Shared with the Space")));
  const setRole = useMutation(trpc.apiTester.sharing.setRole.mutationOptions(handlers("Role changed")));
  const removeUser = useMutation(trpc.apiTester.sharing.removeUser.mutationOptions(handlers("Share removed")));
  const removeSpace = useMutation(trpc.apiTester.sharing.removeSpace.mutationOptions(handlers("Space share removed")));
  const pending = shareUsers.isPending || shareSpaces.isPending || setRole.isPending || removeUser.isPending || removeSpace.isPending;

  return (
    <ShareDialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setError(null);
          setText("");
          onClose();
        }
      }}
      collectionName={collection?.name ?? ""}
      space={namespace ?? ""}
      spaces={namespaces.map((n) => n.name).filter((n) => n !== namespace)}
      people={people.data?.users ?? []}
      peopleLoading={people.isFetching}
      onSearch={setText}
      userShares={users.data?.users ?? []}
      spaceShares={spaces.data?.spaces ?? []}
      sharesLoading={users.isLoading || spaces.isLoading}
      pending={pending}
      error={error ?? users.error ?? spaces.error ?? people.error}
      onShareUser={(userId, role) => shareUsers.mutate({ namespace, id, share: { users: [{ userId, role }] } })}
      onShareSpace={(space) => shareSpaces.mutate({ namespace, id, share: { namespaces: [space] } })}
      onSetRole={(userId, role) => setRole.mutate({ namespace, id, userId, role })}
      onRemoveUser={(userId) => removeUser.mutate({ namespace, id, userId })}
      onRemoveSpace={(space) => removeSpace.mutate({ namespace, id, space })}
    />
  );
}
