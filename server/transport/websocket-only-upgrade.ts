// Only `Upgrade: websocket` leaves the HTTP request path. node:http hands any
// request with an Upgrade header to the 'upgrade' listener once one exists, so
// Java's HttpClient, which offers `Upgrade: h2c` on every plain-HTTP request,
// got the WebSocket refusal instead of its answer. An upgrade we do not take
// is simply not taken (RFC 9110 §7.8): the request is served as HTTP/1.1.
import http from "node:http";

const UPGRADE = Symbol("upgrade");

function wantsWebSocket(value: string | undefined): boolean {
  if (!value) return false;
  // "websocket" or a list naming it ("WebSocket, h2c"); matched without a regex on the hot path.
  return value.length === 9 ? value.toLowerCase() === "websocket" : value.toLowerCase().split(",").some((t) => t.trim() === "websocket");
}

/**
 * The IncomingMessage class the front's server is built with. node:http 20
 * (which has no `shouldUpgradeCallback` option) decides between the 'request'
 * and 'upgrade' events by reading `req.upgrade` once the headers are parsed;
 * this accessor answers true only for CONNECT and WebSocket handshakes.
 */
export class FrontIncomingMessage extends http.IncomingMessage {
  // Set by node's own `this.upgrade = …` (the base constructor's included): no initialiser of its own.
  declare private [UPGRADE]: boolean | null;

  get upgrade(): boolean {
    return this[UPGRADE] === true && (this.method === "CONNECT" || wantsWebSocket(this.headers.upgrade));
  }

  set upgrade(value: boolean) {
    this[UPGRADE] = value;
  }
}

/** Options for http.createServer; newer Node versions also get the public callback that says the same. */
export const websocketOnlyUpgrades = {
  IncomingMessage: FrontIncomingMessage,
  shouldUpgradeCallback: (req: http.IncomingMessage) => wantsWebSocket(req.headers.upgrade),
} as http.ServerOptions;
