// Why a listener could not start, in words for the protocol server's state.
export function listenErrorReason(err: unknown, host: string, port: number): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") return `port ${port} is in use`;
  if (code === "EACCES") return `permission denied to listen on port ${port}`;
  if (code === "EADDRNOTAVAIL") return `address ${host} is not available on this machine`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `host ${host} does not resolve`;
  return (err as Error | undefined)?.message ?? String(err);
}
