// The plugin wire listener (SERVICE_UNIFIED_PORT=1): one TCP port for every
// plugin codec (server/contracts/plugin-protocols.ts). A connection's first
// bytes choose its codec: '*' opens a RESP (Redis) conversation, anything
// else is newline-delimited text. Each decoded message is served through the
// socket mocks of the codec's serverName (`plugin:<codec>`), in the namespace
// the connection picks with AUTH (default sandbox).
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { PluginCodec } from "@/server/contracts/plugin-protocols";
import { parseSocketMessage, socketReply, type SocketMessage } from "@/server/engine/protocols/socket";
import { logger } from "@/server/lib/logger";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { exchangeMessage, type Answer, type Peer } from "../socket/exchange";
import { listenErrorReason } from "../socket/listen-error";
import { deframer, FrameTooLarge } from "../socket/framing";
import { encodeResp, respDecoder, respError, RespProtocolError } from "./resp";

export const DEFAULT_NAMESPACE = "sandbox";

export interface PluginListenerState {
  protocol: "plugin";
  status: "listening" | "error" | "stopped";
  port: number;
  codecs: PluginCodec[];
  error?: string;
}

export interface PluginListener {
  port(): number;
  state(): PluginListenerState;
  stop(): Promise<void>;
}

/** One decoded message: what the socket mocks see, and the text the request log keeps. */
interface Turn {
  message: SocketMessage;
  raw: string;
}

/** A codec's side of a conversation: how it decodes, encodes, and answers what no mock does. */
interface Conversation {
  codec: PluginCodec;
  decode(chunk: Buffer): Turn[];
  encode(payload: unknown): string | undefined;
  /** Part of the protocol's handshake (a mock may still answer it; no mock is no undefined request). */
  handshake(turn: Turn): boolean;
  /** The reply when no mock matched (undefined: none), and whether the connection then ends. */
  fallback(turn: Turn, namespaceKnown: boolean): { reply?: string; close?: boolean };
  /** A command the conversation handles itself (AUTH, a namespace switch): its reply. */
  control(turn: Turn): Promise<string | undefined>;
}

async function namespaceExists(name: string): Promise<boolean> {
  return (namespaceMocksNow(name) ?? (await namespaceMocks(name).catch(() => undefined))) !== undefined;
}

/** Commands clients send on their own when they connect; answered built in when no mock does. */
const RESP_HANDSHAKE = new Set(["PING", "ECHO", "AUTH", "HELLO", "SELECT", "CLIENT", "INFO", "COMMAND", "READONLY", "QUIT"]);
const SERVER_INFO = "# Server\r\nredis_version:7.0.0\r\nredis_mode:standalone\r\nserver_name:polymock\r\n# Persistence\r\nloading:0\r\n";

/** RESP: commands are events, their arguments the body; the handshake commands clients send are answered when no mock does. */
function respConversation(peer: Peer): Conversation {
  const decoder = respDecoder();
  return {
    codec: "resp",
    decode: (chunk) => decoder.push(chunk).map((args) => ({ message: { event: args[0].toUpperCase(), body: args.slice(1) }, raw: args.join(" ") })),
    encode: encodeResp,
    handshake: (turn) => RESP_HANDSHAKE.has(turn.message.event),
    async control(turn) {
      const msg = turn.message;
      const args = msg.body as string[];
      // AUTH <namespace> <password>: the namespace of the rest of the conversation (any password: stubs are open, as on HTTP).
      if (msg.event !== "AUTH" || args.length !== 2) return undefined;
      if (!(await namespaceExists(args[0]))) return respError(`WRONGPASS namespace '${args[0]}' does not exist`);
      peer.namespace = args[0];
      return "+OK\r\n";
    },
    fallback(turn, known) {
      const msg = turn.message;
      if (!known) return { reply: respError(`ERR namespace '${peer.namespace}' does not exist`) };
      switch (msg.event) {
        case "PING":
          return { reply: (msg.body as string[]).length ? encodeResp((msg.body as string[])[0]) : "+PONG\r\n" };
        case "ECHO":
          return { reply: encodeResp((msg.body as string[])[0] ?? "") };
        case "INFO":
          // Clients' ready checks (ioredis) read `loading:0` before their first command.
          return { reply: encodeResp(SERVER_INFO) };
        case "COMMAND":
          return { reply: "*0\r\n" };
        case "AUTH":
        case "SELECT":
        case "CLIENT":
        case "READONLY":
          return { reply: "+OK\r\n" };
        case "QUIT":
          return { reply: "+OK\r\n", close: true };
        case "HELLO":
          // RESP3 is not spoken: clients fall back to RESP2.
          return { reply: respError("NOPROTO this server speaks RESP2 only") };
        default:
          return { reply: respError(`ERR no mock answers '${msg.event}' on ${peer.serverName} in namespace '${peer.namespace}'`) };
      }
    },
  };
}

/** Lines: a JSON line with `event` is that event; `AUTH <namespace>` as a line picks the namespace. */
function lineConversation(peer: Peer): Conversation {
  const lines = deframer("newline");
  return {
    codec: "line",
    decode: (chunk) => lines.push(chunk).map((b) => b.toString("utf8")).map((text) => ({ message: parseSocketMessage(text), raw: text })),
    encode: (payload) => {
      const text = socketReply(payload);
      return text === undefined ? undefined : `${text}\n`;
    },
    async control(turn) {
      const m = /^AUTH (\S+)$/.exec(turn.raw.trim());
      if (!m) return undefined;
      if (!(await namespaceExists(m[1]))) return `ERR namespace '${m[1]}' does not exist\n`;
      peer.namespace = m[1];
      return "OK\n";
    },
    handshake: () => false,
    fallback: () => ({}),
  };
}

function onConnection(socket: net.Socket) {
  const remote = `${socket.remoteAddress}:${socket.remotePort}`;
  let conversation: Conversation | undefined;
  let peer: Peer | undefined;
  let chain: Promise<void> = Promise.resolve();
  const closed = new AbortController();
  socket.on("error", () => {});
  socket.on("close", () => closed.abort());

  const send = async (answer: Answer) => {
    for (const out of answer.frames) {
      if (out.delayMs > 0) await sleep(out.delayMs, undefined, { signal: closed.signal });
      if (!socket.writable) return;
      socket.write(out.text);
    }
    answer.afterSend?.();
  };
  const handle = async (turn: Turn) => {
    if (closed.signal.aborted || !conversation || !peer) return;
    const own = await conversation.control(turn);
    if (own !== undefined) return void socket.write(own);
    const answer = await exchangeMessage(peer, turn.message, turn.raw, conversation.encode, !conversation.handshake(turn));
    if (answer.matched) return send(answer);
    const { reply, close } = conversation.fallback(turn, answer.known);
    if (reply !== undefined && socket.writable) socket.write(reply);
    if (close) socket.end();
  };
  const enqueue = (turn: Turn) => {
    chain = chain.then(() => handle(turn)).catch((err) => {
      if (!closed.signal.aborted) logger().error({ err, codec: conversation?.codec }, "plugin wire message failed");
    });
  };

  socket.on("data", (chunk: Buffer) => {
    if (!conversation) {
      peer = { protocol: "tcp", namespace: DEFAULT_NAMESPACE, serverName: "", remote };
      conversation = chunk[0] === 0x2a ? respConversation(peer) : lineConversation(peer);
      // No `connect` greeting: the codec is only known once the client has spoken.
      peer.serverName = `plugin:${conversation.codec}`;
    }
    try {
      for (const turn of conversation.decode(chunk)) enqueue(turn);
    } catch (err) {
      if (err instanceof RespProtocolError) {
        socket.end(respError(`ERR Protocol error: ${err.message}`));
        return;
      }
      if (err instanceof FrameTooLarge) return void socket.destroy();
      throw err;
    }
  });
  socket.on("end", () => void chain.then(() => socket.end()));
}

/** Listens on `port` (0: any); a port in use is the error state, retried every retryMs. */
export async function startPluginListener(opts: { port: number; host: string; retryMs?: number }): Promise<PluginListener> {
  const sockets = new Set<net.Socket>();
  const state: PluginListenerState = { protocol: "plugin", status: "stopped", port: opts.port, codecs: ["resp", "line"] };
  let server: net.Server | undefined;
  let retry: NodeJS.Timeout | undefined;
  const open = async () => {
    const s = net.createServer({ allowHalfOpen: true }, (socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      onConnection(socket);
    });
    try {
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen({ port: opts.port, host: opts.host, exclusive: true }, () => {
          s.off("error", reject);
          resolve();
        });
      });
      server = s;
      state.status = "listening";
      state.port = (s.address() as net.AddressInfo).port;
      delete state.error;
      logger().info({ port: state.port }, "plugin wire listener listening");
    } catch (err) {
      if (state.status !== "error") logger().error({ err, port: opts.port }, "plugin wire listener could not start; retrying");
      state.status = "error";
      state.error = listenErrorReason(err, opts.host, opts.port);
      retry = setTimeout(() => void open(), opts.retryMs ?? 15_000);
      retry.unref();
    }
  };
  await open();
  return {
    port: () => state.port,
    state: () => ({ ...state }),
    async stop() {
      clearTimeout(retry);
      const done = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
      for (const s of sockets) s.destroy();
      await done;
      state.status = "stopped";
    },
  };
}
