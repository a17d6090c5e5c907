import { endpoint } from "./endpoint";
import { MockInput } from "./mock";
import { MockIdParams, SaveMockQuery, SaveResult, StoredMock } from "./mock-api";

const tag = "Mocks";
export const mockEndpoints = {
  save: endpoint({ method: "POST", path: "/api/v1/mocks", tag, summary: "Create a mock, or overwrite one (same id, or ?intent=overwrite); 409 duplicate_entity for the same endpoint and conditions", auth: "user", namespaced: true, permission: "write", query: SaveMockQuery, body: MockInput, response: SaveResult }),
  get: endpoint({ method: "GET", path: "/api/v1/mocks/{id}", tag, summary: "One mock (also from the recycle bin)", auth: "user", namespaced: true, permission: "read", params: MockIdParams, response: StoredMock }),
} as const;
