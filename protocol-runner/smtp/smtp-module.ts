// The runner's SMTP module: one smtp-server listener per smtp protocol server
// (lifecycle in ../listener-module.ts).
import { optionsFor } from "@/server/contracts/protocol-servers";
import { storedCredentials } from "@/server/services/protocol-servers";
import { listenerModule } from "../listener-module";
import type { ProtocolModule, ServerRow } from "../module";
import { startSmtpListener } from "./smtp-listener";

function credentialsOf(row: ServerRow) {
  try {
    return storedCredentials(row);
  } catch {
    // Undecryptable (APP_SECRET changed): AUTH then fails for everyone, as without credentials.
    return null;
  }
}

export function smtpModule(defaultHost: string): ProtocolModule {
  return listenerModule(
    {
      name: "smtp",
      protocols: ["smtp"],
      // Credentials included, for AUTH.
      fingerprint: (row, host) => [host, row.options, row.credentialsEnc],
      start: (row, host, port, onFailure) =>
        startSmtpListener({
          host,
          port,
          namespace: row.namespace.name,
          namespaceId: row.namespaceId,
          serverName: row.name,
          options: optionsFor("smtp", row.options),
          credentials: credentialsOf(row),
          onFailure,
        }),
    },
    defaultHost,
  );
}
