// How a response's status and a failed send are shown: the pill's colour by
// status class, and a sentence for each send failure code of the execute
// endpoint (server/contracts/tester-execute-endpoints.ts, SendFailure).

export function statusClass(status: number): string {
  if (status >= 500) return "border-destructive/30 bg-destructive/10 text-destructive";
  if (status >= 400) return "border-warning/30 bg-warning/10 text-warning";
  if (status >= 300) return "border-primary/30 bg-primary/10 text-primary";
  if (status >= 200) return "border-success/30 bg-success/10 text-success";
  return "border-border bg-muted text-muted-foreground";
}

const FAILURES: Record<string, string> = {
  timeout: "The request timed out",
  connection_refused: "The server refused the connection",
  dns: "The host name could not be resolved",
  tls: "The TLS handshake failed",
  blocked: "The outbound policy blocked this address",
  aborted: "The request was cancelled",
  too_many_redirects: "Too many redirects",
  invalid_url: "The URL is not valid",
  protocol: "The server's answer is not valid HTTP",
  unresolved_variable: "A variable is not defined",
  build: "The request could not be built",
};

const HINTS: Record<string, string> = {
  timeout: "Raise the timeout in the request's Settings, or check that the server answers.",
  connection_refused: "Is the server running, and on this port?",
  dns: "Check the host name, or the variable that holds it.",
  tls: "For a self-signed certificate, turn off “Verify TLS certificates” in Settings.",
  too_many_redirects: "Raise “Maximum redirects” in Settings, or turn off “Follow redirects”.",
  unresolved_variable: "Define it in the active environment or the collection's variables.",
};

export function failureTitle(code: string): string {
  return FAILURES[code] ?? "The request could not be sent";
}

export function failureHint(code: string): string | undefined {
  return HINTS[code];
}
