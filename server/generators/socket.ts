// A socket document → Socket mocks (WebSocket at /stubs/<ns>/<server>, and
// the TCP/UDP protocol servers of the same name). The spec names no format,
// so this is ours (docs/decisions.md, "Generators"), JSON or YAML:
//
//   title: Chat                  # default id prefix
//   servers:
//     - name: chat               # socket.serverName
//       protocol: websocket      # or tcp, udp: informative (warnings only)
//       events:
//         - event: join          # the message's event; absent: any event
//           match: {room: lobby} # $.room equals "lobby" (keys are paths into the data); a scalar: the whole message equals it
//           reply: {joined: true, room: $.req.room}   # templated; a string goes out as is
//           then: [{reply: {type: presence}, delay: 500}]   # more frames after the reply
//           delay: 100           # ms before the reply
//   events:                      # the same, each naming its serverName (or the request's serverName)
//     - {serverName: chat, event: ping, reply: pong}
//
// A bare list is read as `events`. Each event is one mock; its priority is the
// number of its conditions plus one when it names an event, so the more
// specific mock wins where several fit (unless `priority` is given).
import { z } from "zod";
import { Condition, type MockInput } from "@/server/contracts/mock";
import { mockId, slug, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import { readWithSchema } from "./schema-check";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";

const Delay = z.number().int().min(0).max(600_000);

const EventFields = {
  name: z.string().min(1).max(100).optional().describe("names the mock (its id and summary)"),
  event: z.string().min(1).max(200).optional().describe("the message's event; absent: any event"),
  match: z.union([z.record(z.string().min(1).max(500), z.unknown()), z.string(), z.number(), z.boolean()]).optional().describe("values the message's data must hold (equals), by path; a scalar: the whole message"),
  conditions: z.array(Condition).max(100).optional().describe("the mock's own conditions, for operators other than equals"),
  reply: z.unknown().optional().describe("the reply frame: a string as is, any other value as JSON; templated; absent: no reply"),
  then: z
    .array(z.object({ reply: z.unknown(), delay: Delay.optional() }).strict())
    .max(1000)
    .optional()
    .describe("further frames after the reply"),
  delay: Delay.optional().describe("milliseconds before the reply"),
  priority: z.number().int().min(-1_000_000).max(1_000_000).optional(),
};
const ServerEvent = z.object(EventFields).strict();
const TopEvent = z.object({ ...EventFields, serverName: z.string().min(1).max(200).optional() }).strict();
type TopEvent = z.infer<typeof TopEvent>;

const SocketDocument = z.preprocess(
  (v) => (Array.isArray(v) ? { events: v } : v),
  z
    .object({
      title: z.string().max(200).optional(),
      servers: z
        .array(
          z
            .object({
              name: z.string().min(1).max(200),
              protocol: z.enum(["websocket", "tcp", "udp"]).optional(),
              description: z.string().max(4000).optional(),
              events: z.array(ServerEvent).min(1).max(10_000),
            })
            .strict(),
        )
        .max(1000)
        .optional(),
      events: z.array(TopEvent).max(10_000).optional(),
    })
    .strict(),
);

function conditionsOf(e: TopEvent): z.input<typeof Condition>[] {
  const out: z.input<typeof Condition>[] = [];
  if (e.match !== undefined && (typeof e.match !== "object" || e.match === null)) out.push({ path: "$", assertAction: "equals", value: e.match });
  else if (e.match) for (const [key, value] of Object.entries(e.match)) out.push({ path: key.startsWith("$") ? key : `$.${key}`, assertAction: "equals", value });
  return [...out, ...(e.conditions ?? [])];
}

const short = (v: unknown) => {
  const text = typeof v === "string" ? v : JSON.stringify(v);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
};

export async function socketToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const doc = readWithSchema(SocketDocument, document, "a socket document ({servers: [{name, events: […]}]} or {events: [{serverName, event, match, reply}]})");
  const warnings: GeneratorWarning[] = [];
  const listed: { at: string; serverName: string; protocol?: string; e: TopEvent }[] = [];
  doc.servers?.forEach((s, i) => {
    if (s.protocol === "tcp" || s.protocol === "udp") warnings.push({ pointer: `/servers/${i}`, message: `${s.protocol} server "${s.name}": its mocks answer once the namespace has a ${s.protocol} protocol server named "${s.name}" (Protocol servers)` });
    s.events.forEach((e, j) => listed.push({ at: `/servers/${i}/events/${j}`, serverName: s.name, protocol: s.protocol, e }));
  });
  doc.events?.forEach((e, j) => {
    const serverName = e.serverName ?? options.serverName;
    if (!serverName) throw new GeneratorInputError("the event names no socket server: give its serverName, list it under servers, or give serverName in the request", { pointer: `/events/${j}` });
    listed.push({ at: `/events/${j}`, serverName, e });
  });
  if (!listed.length) throw new GeneratorInputError("the document has no events", { pointer: doc.servers ? "/servers" : "/events" });
  if (options.pathPrefix) warnings.push({ message: "pathPrefix does not apply to socket mocks (a WebSocket connects to /stubs/<namespace>/<serverName>): ignored" });

  const prefix = options.idPrefix ?? slug(doc.title ?? "socket", 40);
  const mocks: GeneratedMock[] = listed.map(({ at, serverName, protocol, e }) => {
    if (e.event === "connect" && protocol === "websocket") warnings.push({ pointer: at, message: "a WebSocket connection is not greeted: event connect answers new TCP connections only" });
    const conditions = conditionsOf(e);
    const matched = conditions.map((c) => `${c.path === "$" ? "message" : c.path.replace(/^\$\./, "")}${c.assertAction === "equals" ? `=${short(c.value)}` : ` ${c.assertAction}${c.value === undefined ? "" : ` ${short(c.value)}`}`}`);
    const mock: MockInput & { id: string } = {
      id: mockId(prefix, serverName, e.event ?? "any", e.name ?? (matched.length ? slug(matched.join("-"), 40) : undefined)),
      socket: { serverName, ...(e.event ? { event: e.event } : {}), ...(conditions.length ? { conditions } : {}) },
      response: {
        ...(e.reply !== undefined ? { payload: e.reply } : {}),
        ...(e.delay ? { delay: e.delay } : {}),
        ...(e.then?.length ? { sseEventChain: { events: e.then.map((t) => ({ data: t.reply, ...(t.delay ? { delay: t.delay } : {}) })) } } : {}),
      },
      priority: e.priority ?? conditions.length + (e.event ? 1 : 0),
      ...(options.tags?.length ? { tags: options.tags } : {}),
      ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
    };
    const answer = e.reply === undefined ? "no reply" : short(e.reply);
    const more = e.then?.length ? ` (+${e.then.length} more)` : "";
    return { mock, summary: `${serverName} ${e.event ?? "any event"}${matched.length ? ` (${matched.join(", ")})` : ""} → ${answer}${more}${e.name ? ` [${e.name}]` : ""}` };
  });
  uniqueIds(mocks);
  return { mocks, warnings };
}
