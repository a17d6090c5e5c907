// The runner's contract with a protocol module (socket/, smtp/, grpc/, …): the
// runner hands each module the protocol-server rows of its protocols whenever
// they change, and the module reports each listener's state back. A module
// plugs in with one line in ./main.ts.
import type { ListenerState, ServerProtocol } from "@/server/contracts/protocol-servers";
import type { ProtocolServer } from "@/server/db/client";

/** A protocol-server row with its namespace's name (what the serving core routes by). */
export type ServerRow = ProtocolServer & { namespace: { name: string } };

export interface ListenerReport {
  /** The protocol server's id, or the module's own name for a fixed listener (gRPC on GRPC_PORT). */
  id: string;
  name: string;
  namespace?: string;
  protocol: string;
  port?: number | null;
  state: ListenerState;
  reason?: string | null;
}

/** How a module tells the runner a listener changed state (written to its protocol-server row). */
export type ReportState = (row: Pick<ServerRow, "id">, state: ListenerState, reason?: string | null) => void;

export interface ProtocolModule {
  readonly name: string;
  /** The protocol-server rows it serves; [] for a module with its own fixed listener. */
  readonly protocols: readonly ServerProtocol[];
  start(report: ReportState): Promise<void>;
  /** Brings listeners in line with the rows (start new, restart changed, stop removed); never throws for one bad row. */
  reconcile(rows: ServerRow[]): Promise<void>;
  stop(): Promise<void>;
  state(): ListenerReport[];
}
