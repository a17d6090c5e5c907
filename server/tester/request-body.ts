// A request body's bytes for each body mode, with the Content-Type the mode
// implies (used when the user wrote none) and the form the sent request shows
// it in: text for raw, urlencoded and GraphQL bodies, base64 for binary and
// multipart ones (they may hold file bytes).
import type { RequestBody } from "@/server/contracts/tester-request";
import { RequestBuildError } from "./build-error";
import { encodeMultipart } from "./multipart";
import type { PreparedRequest } from "./prepared-request";
import type { Substituter } from "./variables";

export const RAW_CONTENT_TYPES: Record<string, string> = {
  json: "application/json",
  xml: "application/xml",
  text: "text/plain",
  html: "text/html",
  javascript: "application/javascript",
};

export interface EncodedBody {
  body?: Buffer;
  contentType?: string;
  /** Set for multipart bodies: a user's Content-Type without one gets it appended. */
  boundary?: string;
  preview: PreparedRequest["bodyPreview"];
}

const text = (s: string, contentType?: string): EncodedBody => ({ body: Buffer.from(s), contentType, preview: { body: s, bodyEncoding: "utf8" } });
const bytes = (b: Buffer, contentType?: string, boundary?: string): EncodedBody => ({ body: b, contentType, boundary, preview: { body: b.toString("base64"), bodyEncoding: "base64" } });

/** The GraphQL request's fields: the query, variables as an object (given as JSON text or as an object), the operation name. */
export function graphqlPayload(gql: NonNullable<RequestBody["graphql"]>, sub: Substituter): { query: string; variables?: unknown; operationName?: string } {
  const payload: { query: string; variables?: unknown; operationName?: string } = { query: sub.text(gql.query) };
  if (typeof gql.variables === "string") {
    const source = sub.text(gql.variables);
    if (source.trim()) {
      try {
        payload.variables = JSON.parse(source);
      } catch (err) {
        throw new RequestBuildError("invalid_body", `The GraphQL variables are not valid JSON (${(err as Error).message}). Write them as a JSON object, e.g. {"id": "{{id}}"}.`, { cause: err });
      }
    }
  } else if (gql.variables !== undefined) payload.variables = sub.deep(gql.variables);
  const operationName = gql.operationName ? sub.text(gql.operationName) : "";
  if (operationName) payload.operationName = operationName;
  return payload;
}

export function encodeRequestBody(body: RequestBody, sub: Substituter): EncodedBody {
  switch (body.mode) {
    case "none":
      return { preview: {} };
    case "raw": {
      const raw = sub.text(body.raw ?? "");
      return raw === "" ? { preview: {} } : text(raw, RAW_CONTENT_TYPES[body.language ?? "text"]);
    }
    case "urlencoded": {
      const form = new URLSearchParams();
      for (const kv of body.urlencoded ?? []) {
        if (!kv.enabled || (kv.key === "" && kv.value === "")) continue;
        form.append(sub.text(kv.key), sub.text(kv.value));
      }
      return text(form.toString(), "application/x-www-form-urlencoded");
    }
    case "formdata": {
      const parts = (body.formdata ?? [])
        .filter((p) => p.enabled && p.key !== "")
        .map((p) =>
          p.type === "file"
            ? { name: sub.text(p.key), value: Buffer.from(p.contentBase64 ?? "", "base64"), fileName: sub.text(p.fileName ?? p.key), contentType: p.contentType }
            : { name: sub.text(p.key), value: sub.text(p.value), contentType: p.contentType },
        );
      const { body: encoded, boundary } = encodeMultipart(parts);
      return bytes(encoded, `multipart/form-data; boundary=${boundary}`, boundary);
    }
    case "binary":
      return body.binary ? bytes(Buffer.from(body.binary.contentBase64, "base64"), body.binary.contentType || "application/octet-stream") : { preview: {} };
    case "graphql":
      return body.graphql ? text(JSON.stringify(graphqlPayload(body.graphql, sub)), "application/json") : { preview: {} };
  }
}
