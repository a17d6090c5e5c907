// Shapes of the mock-management API around the Mock contract.
import { z } from "zod";
import { MockId, MockInput, PROTOCOLS } from "./mock";
import { QueryBool } from "./common";

export const SaveIntent = z.enum(["overwrite", "create_new"]);

export const SaveMockQuery = z.object({ namespace: z.string().optional(), intent: SaveIntent.optional() });

export const MockRecord = z.object({ id: z.string(), namespace: z.string(), createdAt: z.number().int(), useCounter: z.number().int() });

export const SaveResult = z.object({ overwritten: z.boolean(), mock: MockRecord });
export type SaveResult = z.infer<typeof SaveResult>;

/** A stored mock as the API returns it: the definition plus bookkeeping. */
export const StoredMock = MockInput.extend({
  id: z.string(),
  namespace: z.string(),
  createdAt: z.number().int().describe("milliseconds since the epoch"),
  updatedAt: z.number().int(),
  useCounter: z.number().int(),
  version: z.number().int(),
  deleted: z.boolean(),
  deletedAt: z.number().int().nullable(),
  protocol: z.enum(PROTOCOLS),
});
export type StoredMock = z.infer<typeof StoredMock>;

export const DuplicateConflict = z.object({
  error: z.string(),
  code: z.literal("duplicate_entity"),
  request_id: z.string(),
  matchLevel: z.enum(["strict", "similar"]),
  existing: z.object({ id: z.string(), summary: z.string() }),
});

export const ListMocksQuery = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(50),
  namespace: z.string().optional(),
  tags: z.string().max(2000).optional().describe("comma-separated; a mock must carry all"),
  search: z.string().max(200).optional().describe("matches mock ids, tags and routes"),
  folderId: z.union([z.literal("root"), z.string().uuid()]).optional(),
  protocol: z.enum(PROTOCOLS).optional(),
  onlyActive: QueryBool.optional(),
});
export const MockList = z.object({ mocks: z.array(StoredMock), total: z.number().int(), limit: z.number().int(), offset: z.number().int() });

export const MockIdParams = z.object({ id: MockId });
export const VersionParams = MockIdParams.extend({ version: z.coerce.number().int().min(1) });
export const MockVersionView = z.object({ version: z.number().int(), createdAt: z.number().int(), createdBy: z.string().nullable(), change: z.string(), definition: z.unknown() });
export const MockVersionList = z.object({ versions: z.array(MockVersionView.omit({ definition: true })), count: z.number().int() });
