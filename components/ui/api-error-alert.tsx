import { errorMessage, requestIdOf } from "@/components/lib/api-error";
import { Alert } from "./alert";

/** An API error as the user sees it: the envelope's message, and the request id to quote when asking for help. */
export function ApiErrorAlert({ error, title, className }: { error: unknown; title?: string; className?: string }) {
  if (!error) return null;
  const requestId = requestIdOf(error);
  return (
    <Alert variant="error" title={title} className={className}>
      <p>{errorMessage(error)}</p>
      {requestId ? <p className="mt-1 text-xs opacity-80">Request ID: {requestId}</p> : null}
    </Alert>
  );
}
