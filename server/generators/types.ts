// What every generator (OpenAPI, WSDL, .proto, GraphQL, HAR, MCP, AsyncAPI,
// socket) takes and gives: a parsed document in, mock inputs and warnings
// out. Pure: no database, no network; the service around them saves.
import type { MockInput } from "@/server/contracts/mock";

export interface GeneratorOptions {
  /** Mock ids start with this (default: a slug of the document's title); re-running on the same document gives the same ids. */
  idPrefix?: string;
  pathPrefix?: string;
  serverName?: string;
  tags?: string[];
  folderId?: string | null;
}

export interface GeneratorWarning {
  /** Where in the document (a JSON pointer such as /paths/~1pets/get/responses/200), when it is about one place. */
  pointer?: string;
  /** The mock it concerns, when one was still made. */
  mockId?: string;
  message: string;
}

export interface GeneratedMock {
  mock: MockInput & { id: string };
  /** What it stands for, for the preview list: "GET /pets → 200 (example two)". */
  summary: string;
}

export interface GeneratorResult {
  mocks: GeneratedMock[];
  warnings: GeneratorWarning[];
  /** .proto files the mocks need in their namespace (the gRPC generator): stored in the same transaction as the mocks. */
  protos?: { name: string; content: string }[];
}
