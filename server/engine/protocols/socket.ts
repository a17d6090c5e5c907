// WebSocket mocks: a client connects to /stubs/<namespace>/<socket.serverName>
// (pathPrefix does not apply: the spec lists it for HTTP, SOAP, MCP, SSE and
// GraphQL only); each text message is matched by its event name (the
// selector, `socket.event`; a mock without one takes any event) and by
// `socket.conditions` over the message's data.
import { joinRoute } from "../route";
import type { Placer } from "./placement";

export const placeSocket: Placer = (def) => {
  const socket = def.socket;
  if (!socket) return null;
  return { route: joinRoute(undefined, socket.serverName), selector: socket.event || null, conditions: { conditions: socket.conditions } };
};

/** The event of a message that names none (raw text, or JSON without a string `event`). */
export const DEFAULT_SOCKET_EVENT = "message";

export interface SocketMessage {
  event: string;
  /** What conditions and `$.req` see. */
  body: unknown;
}

/**
 * A text message as the engine sees it:
 * - a JSON object with a non-empty string `event`: that event, body = its `data`;
 * - any other JSON value: event "message", body = the value;
 * - anything else: event "message", body = the text.
 */
export function parseSocketMessage(text: string): SocketMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { event: DEFAULT_SOCKET_EVENT, body: text };
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const { event, data } = value as { event?: unknown; data?: unknown };
    if (typeof event === "string" && event !== "") return { event, body: data };
  }
  return { event: DEFAULT_SOCKET_EVENT, body: value };
}

/** The frame sent back: the rendered payload exactly as configured (a string as is, anything else as JSON); none when the payload is absent. */
export function socketReply(payload: unknown): string | undefined {
  if (payload === undefined) return undefined;
  return typeof payload === "string" ? payload : JSON.stringify(payload);
}

/** Whether a route pattern matches a request path (any event): decides whether a connection is accepted. */
