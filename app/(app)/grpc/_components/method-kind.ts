// A method's streaming kind in words, as the protos page and the mock editor show it.
export function methodKind(m: { requestStream: boolean; responseStream: boolean }): string {
  if (m.requestStream && m.responseStream) return "bidi";
  if (m.requestStream) return "client-stream";
  return m.responseStream ? "server-stream" : "unary";
}
