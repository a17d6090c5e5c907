// The specification builder: a namespace's mocks out as a document — HTTP
// mocks as OpenAPI 3.0, Kafka, RabbitMQ and NATS mocks as AsyncAPI 2.6 —
// with a warning for each mock the format cannot express. Rules:
// docs/decisions.md, "Generators".
import { z } from "zod";
import { endpoint } from "./endpoint";
import { MockId, MockInput } from "./mock";

export const SPEC_FORMATS = ["openapi", "asyncapi"] as const;
export type SpecFormat = (typeof SPEC_FORMATS)[number];

export const SpecRequest = z
  .object({
    format: z.enum(SPEC_FORMATS).describe("openapi: HTTP mocks → OpenAPI 3.0; asyncapi: Kafka, RabbitMQ and NATS mocks → AsyncAPI 2.6"),
    namespace: z.string().max(200).optional().describe("the namespace (also ?namespace=); default sandbox"),
    folderId: z.string().uuid().optional().describe("only the mocks of this folder"),
    tags: MockInput.shape.tags.describe("only mocks carrying every one of these tags"),
    mockIds: z.array(MockId).max(10_000).optional().describe("only these mocks"),
    title: z.string().min(1).max(200).optional().describe("the document's info.title; default from the namespace"),
    version: z.string().min(1).max(100).optional().describe("the document's info.version; default 1.0.0"),
    serverUrl: z.string().min(1).max(2000).optional().describe("the server URL the document names; default /stubs/<namespace> (OpenAPI), the broker's usual local address (AsyncAPI)"),
  })
  .strict();
export type SpecRequest = z.infer<typeof SpecRequest>;

export const SpecWarning = z.object({
  mockId: z.string(),
  route: z.string().describe('the mock as lists show it, e.g. "GET /users/:id" or "topic orders"'),
  reason: z.string(),
});

export const SpecResponse = z.object({
  spec: z.record(z.string(), z.unknown()).describe("the document, as a JSON value"),
  warnings: z.array(SpecWarning).describe("each mock that could not be expressed (skipped), or only in part (exported, with what was left out)"),
  stats: z.object({ considered: z.number().int().describe("mocks the filters selected"), exported: z.number().int().describe("mocks the document expresses") }),
});
export type SpecResponse = z.infer<typeof SpecResponse>;

export const specBuilderEndpoint = endpoint({
  method: "POST",
  path: "/api/v1/generators/spec",
  tag: "Generators",
  summary: "Build an OpenAPI 3.0 (HTTP mocks) or AsyncAPI 2.6 (Kafka, RabbitMQ, NATS mocks) document from the namespace's mocks; recorded in the audit log",
  auth: "user",
  namespaced: true,
  permission: "read",
  body: SpecRequest,
  response: SpecResponse,
});
