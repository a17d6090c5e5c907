// Message bodies of the broker protocols (RabbitMQ, Kafka, NATS) as the
// engine sees them, and a reply payload as bytes: one rule for all three.

/** A message body: JSON when it parses, else the text; `jsonError` when it claimed to be JSON and is not. */
export function parseMessageBody(content: Buffer | Uint8Array, contentType: string | undefined): { body: unknown; text: string; jsonError?: string } {
  const text = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString("utf8");
  const claimsJson = /json/i.test(contentType ?? "");
  const trimmed = text.trimStart();
  if (!claimsJson && !/^[[{"]|^-?\d|^(true|false|null)\b/.test(trimmed)) return { body: text, text };
  try {
    return { body: JSON.parse(text), text };
  } catch (err) {
    return { body: text, text, ...(claimsJson ? { jsonError: `the body is not valid JSON (${(err as Error).message})` } : {}) };
  }
}

/** The reply's bytes: a string payload as is (text/plain), anything else as JSON (application/json); none when the payload is absent. */
export function messageReply(payload: unknown): { content: Buffer; contentType: string } | undefined {
  if (payload === undefined) return undefined;
  if (typeof payload === "string") return { content: Buffer.from(payload, "utf8"), contentType: "text/plain; charset=utf-8" };
  return { content: Buffer.from(JSON.stringify(payload), "utf8"), contentType: "application/json" };
}
