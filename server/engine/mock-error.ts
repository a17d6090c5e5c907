// The base of errors that are the mock's fault, not the server's (a missing
// template file, a template over its limits): adapters answer them as
// `mock_error` with the reason, and recognise them with `instanceof`.
export class MockError extends Error {}

export function isMockError(err: unknown): err is MockError {
  return err instanceof MockError;
}
