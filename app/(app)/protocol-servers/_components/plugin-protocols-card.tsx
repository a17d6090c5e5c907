"use client";
// The plugin wire listener's codecs (SERVICE_UNIFIED_PORT=1): which socket
// serverName answers each one, on which port, and whether the runner listens.
// Nothing is shown when the listener is not enabled.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/client";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { StateBadge } from "./state-badge";

export function PluginProtocolsCard({ namespace, pollMs }: { namespace: string; pollMs: number }) {
  const trpc = useTRPC();
  const plugins = useQuery(trpc.protocolServers.pluginProtocols.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: pollMs }));
  if (!plugins.data?.enabled) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Plugin wire listener</CardTitle>
        <p className="text-sm text-muted-foreground">
          One more port of the runner speaks these protocols; a socket mock with the server name shown answers them, the command or message as its event.
        </p>
      </CardHeader>
      <CardContent>
        <ul className="divide-y" aria-label="Plugin protocols">
          {plugins.data.protocols.map((p) => (
            <li key={p.codec} className="grid gap-2 py-3 sm:grid-cols-[14rem_1fr_auto] sm:items-start">
              <div>
                <div className="font-medium">{p.name}</div>
                <div className="mt-1 flex items-center gap-1">
                  <code className="font-mono text-xs">{p.serverName}</code>
                  <CopyButton value={p.serverName} size="sm" aria-label={`Copy ${p.serverName}`} />
                </div>
              </div>
              <dl className="grid grid-cols-[6rem_1fr] gap-x-2 gap-y-1 text-xs text-muted-foreground">
                <dt>Event</dt>
                <dd>{p.event}</dd>
                <dt>Body</dt>
                <dd>{p.body}</dd>
                <dt>Namespace</dt>
                <dd>{p.namespace}</dd>
              </dl>
              <div className="flex flex-col items-start gap-1 sm:items-end">
                <span className="font-mono text-xs">tcp :{p.port}</span>
                {p.state === "unknown" ? <Badge variant="secondary">runner not answering</Badge> : <StateBadge state={p.state} reason={p.reason} />}
                <span className="text-xs text-muted-foreground">
                  {p.mocks} {p.mocks === 1 ? "mock" : "mocks"}
                </span>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
