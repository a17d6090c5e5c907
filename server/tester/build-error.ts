// Why a request definition could not be turned into a request: a body that
// does not parse (GraphQL variables that are not JSON) or an OAuth 2.0 token
// the token endpoint would not give. Reported to the user like a SendError,
// with a message naming what to fix.
export type RequestBuildErrorCode = "invalid_body" | "oauth2";

export class RequestBuildError extends Error {
  constructor(
    readonly code: RequestBuildErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RequestBuildError";
  }
}
