// The API tester's execution history: one entry per request a user sent from
// the workspace, newest first, kept to the newest HISTORY_KEEP per user and
// namespace. What went out has its secret values masked; the answer keeps its
// status, time, size and headers and at most HISTORY_BODY_BYTES of its body.
import { z } from "zod";
import { Paging, Timestamp } from "./common";
import { ScriptVerdict, SentRequest } from "./tester-execution";

export const HISTORY_KEEP = 500;
export const HISTORY_BODY_BYTES = 64 * 1024;

export const HistoryResponse = z.object({
  status: z.number().int(),
  statusText: z.string(),
  headers: z.array(z.object({ key: z.string(), value: z.string() })),
  body: z.string().describe("text, or base64 when bodyEncoding is base64; at most 64 KiB"),
  bodyEncoding: z.enum(["utf8", "base64"]),
  bodyTruncated: z.boolean().describe("the body was cut (here or when it was received)"),
  size: z.object({ headers: z.number().int(), body: z.number().int().describe("bytes received, before any cut") }),
  timeMs: z.number(),
  url: z.string().describe("the final URL, after redirects"),
});
export type HistoryResponse = z.infer<typeof HistoryResponse>;

export const HistoryVerdict = z.object({
  preRequest: ScriptVerdict.optional(),
  test: ScriptVerdict.optional(),
});
export type HistoryVerdict = z.infer<typeof HistoryVerdict>;

export const HistoryEntry = z.object({
  id: z.string().uuid(),
  requestId: z.string().uuid().nullable().describe("the saved request sent, when it was one (null once it is deleted)"),
  collectionId: z.string().uuid().nullable(),
  method: z.string(),
  url: z.string(),
  status: z.number().int().nullable().describe("the response's status; null when nothing was received"),
  timeMs: z.number().nullable(),
  size: z.number().int().nullable().describe("bytes of the response body"),
  request: SentRequest.describe("as sent, secret values masked"),
  response: HistoryResponse.nullable(),
  verdict: HistoryVerdict.nullable(),
  error: z.string().nullable().describe("why nothing was received, when it was not"),
  createdAt: Timestamp,
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryQuery = Paging.extend({
  requestId: z.string().uuid({ message: "must be a UUID" }).optional().describe("only the entries of this saved request"),
});

export const HistoryList = z.object({
  history: z.array(HistoryEntry),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
