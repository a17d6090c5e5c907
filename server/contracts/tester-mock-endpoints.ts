// Mocks from API tester traffic: one response (inline or a history entry)
// becomes a mock, or every request of a collection does (its last recorded
// response, or a fresh execution), with conditions where requests to the
// same method and path differ. The mocks land in the caller's namespace
// (or another one the caller may write).
import { z } from "zod";
import { MockId } from "./mock";
import { SaveIntent, StoredMock } from "./mock-api";
import { endpoint } from "./endpoint";

const Header = z.object({ key: z.string().min(1).max(200), value: z.string().max(16_384) });

const RecordedRequest = z
  .object({
    method: z.string().min(1).max(20),
    url: z.string().min(1).max(8000).describe("absolute URL as sent; its path becomes the mock's route"),
    headers: z.array(Header).max(200).default([]),
    body: z.string().max(10 * 1024 * 1024).optional(),
    bodyEncoding: z.enum(["utf8", "base64"]).optional(),
  })
  .describe("the request as it was sent");

const RecordedResponse = z
  .object({
    status: z.number().int().min(100).max(599),
    headers: z.array(Header).max(200).default([]).describe("hop-by-hop, length and encoding headers are dropped"),
    body: z.string().max(10 * 1024 * 1024).default(""),
    bodyEncoding: z.enum(["utf8", "base64"]).default("utf8"),
    bodyTruncated: z.boolean().optional().describe("a cut body cannot be served faithfully: refused"),
  })
  .describe("the response as it was received");

const Target = {
  targetNamespace: z.string().min(1).max(63).optional().describe("where the mocks are created (default: the request's namespace); needs write there"),
  tags: z.array(z.string().min(1).max(100)).max(50).optional(),
  folderId: z.string().uuid().nullable().optional().describe("mock folder in the target namespace"),
};

export const MockFromResponseInput = z
  .object({
    historyId: z.string().uuid().optional().describe("a history entry of the caller: its request and response"),
    request: RecordedRequest.optional(),
    response: RecordedResponse.optional(),
    id: MockId.optional().describe("the mock's id (generated when absent)"),
    matchQuery: z.boolean().default(false).describe("add equality conditions on every query parameter of the URL"),
    matchHeaders: z.array(z.string().min(1).max(200)).max(50).default([]).describe("add equality conditions on these request headers"),
    matchBody: z.boolean().default(false).describe("add equality conditions on the top-level fields of a JSON request body"),
    intent: SaveIntent.optional().describe("as POST /api/v1/mocks: a mock for the same endpoint and conditions is a 409 unless overwrite or create_new"),
    ...Target,
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.historyId && (v.request || v.response)) ctx.addIssue({ code: "custom", path: ["historyId"], message: "give historyId or request and response, not both" });
    if (!v.historyId && !v.request) ctx.addIssue({ code: "custom", path: ["request"], message: "required without historyId" });
    if (!v.historyId && !v.response) ctx.addIssue({ code: "custom", path: ["response"], message: "required without historyId" });
  });
export type MockFromResponseInput = z.infer<typeof MockFromResponseInput>;

export const MockFromResponseResult = z.object({ overwritten: z.boolean(), mock: StoredMock });

export const MocksFromCollectionInput = z
  .object({
    collectionId: z.string().uuid(),
    requestIds: z.array(z.string().uuid()).max(10_000).optional().describe("only these requests of the collection"),
    execute: z.boolean().default(false).describe("true: send every request now (with its scripts); false: use the caller's last recorded response of each request"),
    environmentId: z.string().uuid().or(z.literal("")).nullable().optional().describe("with execute: absent uses the caller's active environment; empty or null: none"),
    environmentVariables: z.record(z.string(), z.string()).optional().describe("with execute: replaces the environment's values"),
    ...Target,
  })
  .strict();
export type MocksFromCollectionInput = z.infer<typeof MocksFromCollectionInput>;

export const MocksFromCollectionResult = z.object({
  namespace: z.string(),
  created: z.array(z.object({ mockId: z.string(), requestId: z.string(), name: z.string(), method: z.string(), route: z.string(), conditions: z.number().int().describe("conditions that tell it apart from its siblings") })),
  skipped: z.array(z.object({ requestId: z.string(), name: z.string(), reason: z.string() })),
});
export type MocksFromCollectionResult = z.infer<typeof MocksFromCollectionResult>;

const tag = "API tester: mocks from traffic";
export const testerMockEndpoints = {
  mockFromResponse: endpoint({
    method: "POST",
    path: "/api/v1/api-tester/mock-from-response",
    tag,
    summary: "Generate a mock from a response: the request's method and path, the response's status, headers and body",
    auth: "user",
    namespaced: true,
    permission: "write",
    body: MockFromResponseInput,
    response: MockFromResponseResult,
    successStatus: 201,
    statuses: { 409: "a mock for the same endpoint and conditions exists (see intent)" },
  }),
  mocksFromCollection: endpoint({
    method: "POST",
    path: "/api/v1/api-tester/mocks-from-collection",
    tag,
    summary: "Generate mocks from a collection's recorded or freshly executed responses, with conditions where requests to one path differ; all or nothing",
    auth: "user",
    namespaced: true,
    permission: "write",
    body: MocksFromCollectionInput,
    response: MocksFromCollectionResult,
    successStatus: 201,
    statuses: { 403: "the collection is shared from another Space (checked before anything is read)" },
  }),
} as const;
