"use client";
// The collections (in run order) and the environment a saved run
// configuration uses: shared by the standalone tests' and the schedules'
// forms. Collections run in the order they were ticked, as execute-multiple
// runs them; the order is shown beside each ticked one.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/client";
import { Label } from "@/components/ui/label";
import { SkeletonRows } from "@/components/ui/skeleton";

export function CollectionChecklist({ namespace, value, onChange, idPrefix, error }: { namespace: string | undefined; value: string[]; onChange: (ids: string[]) => void; idPrefix: string; error?: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.apiTester.collections.list.queryOptions({ namespace, limit: 500 }, { enabled: !!namespace }));
  const toggle = (id: string, on: boolean) => onChange(on ? [...value, id] : value.filter((v) => v !== id));
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${idPrefix}-error` : undefined}>
      <legend className="mb-2 text-sm font-medium">Collections (run in the order ticked)</legend>
      {list.isLoading ? <SkeletonRows rows={3} label="Loading the collections" /> : null}
      {list.data && list.data.collections.length === 0 ? <p className="text-sm text-muted-foreground">No collections in this namespace yet: create one in the workspace first.</p> : null}
      <ul className="flex max-h-56 flex-col gap-1 overflow-y-auto rounded-md border p-2">
        {(list.data?.collections ?? []).map((c) => {
          const position = value.indexOf(c.id);
          const id = `${idPrefix}-${c.id}`;
          return (
            <li key={c.id} className="flex items-center gap-2">
              <input id={id} type="checkbox" className="size-4 accent-primary" checked={position >= 0} onChange={(e) => toggle(c.id, e.target.checked)} />
              <Label htmlFor={id} className="min-w-0 flex-1 truncate font-normal">
                {c.name}
              </Label>
              {position >= 0 ? <span className="text-xs text-muted-foreground tabular-nums" aria-label={`runs ${position + 1}.`}>{position + 1}.</span> : null}
            </li>
          );
        })}
      </ul>
      {error ? (
        <p id={`${idPrefix}-error`} className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A native select: few options, and it reads well with a keyboard and a screen reader. */
export function EnvironmentSelect({ namespace, value, onChange, id }: { namespace: string | undefined; value: string | null; onChange: (id: string | null) => void; id: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: !!namespace }));
  return (
    <select id={id} className="h-9 rounded-md border bg-background px-3 text-sm" value={value ?? ""} onChange={(e) => onChange(e.target.value || null)}>
      <option value="">No environment</option>
      {(list.data?.environments ?? []).map((e) => (
        <option key={e.id} value={e.id}>
          {e.name}
        </option>
      ))}
    </select>
  );
}
