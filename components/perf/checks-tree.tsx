// k6's root_group: groups as nested sections, each check with its passes,
// fails and pass rate; ✓ when it never failed, ✗ otherwise, as k6 prints them.
import type { PerfGroup } from "@/server/contracts/perf";
import { formatPercent } from "./format";

function countChecks(g: PerfGroup): number {
  return g.checks.length + g.groups.reduce((n, c) => n + countChecks(c), 0);
}

function GroupBlock({ group, depth }: { group: PerfGroup; depth: number }) {
  return (
    <div className={depth ? "border-l pl-4" : undefined}>
      {group.name ? <h4 className="mb-1 text-sm font-medium">█ {group.name}</h4> : null}
      {group.checks.length ? (
        <ul className="mb-2 flex flex-col gap-1" aria-label={group.name ? `Checks in ${group.name}` : "Checks"}>
          {group.checks.map((c) => {
            const total = c.passes + c.fails;
            const ok = c.fails === 0;
            return (
              <li key={c.path} className="flex flex-wrap items-baseline gap-x-3 font-mono text-xs">
                <span className={ok ? "text-success" : "text-destructive"} aria-label={ok ? "passed" : "failed"}>
                  {ok ? "✓" : "✗"}
                </span>
                <span className="text-foreground">{c.name}</span>
                <span className="text-muted-foreground tabular-nums">
                  {total ? formatPercent(c.passes / total, 1) : "—"} — ✓ {c.passes} / ✗ {c.fails}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {group.groups.map((g) => (
        <GroupBlock key={g.path} group={g} depth={depth + 1} />
      ))}
    </div>
  );
}

export function ChecksTree({ root, live = false }: { root: PerfGroup | null; live?: boolean }) {
  if (live && (!root || countChecks(root) === 0)) return <p className="text-sm text-muted-foreground">Checks show here as the script runs them.</p>;
  if (!root || (countChecks(root) === 0 && root.groups.length === 0))
    return (
      <p className="text-sm text-muted-foreground">
        No checks ran. <code className="font-mono text-xs">check(res, {"{ \"status is 200\": (r) => r.status === 200 }"})</code> in the script counts passes and fails without stopping the run.
      </p>
    );
  return <GroupBlock group={root} depth={0} />;
}
