import type { MockInput } from "@/server/contracts/mock";

/** The mock the empty list offers to create in one click: a route parameter, a condition and templates. */
export function exampleMock(): MockInput {
  return {
    http: {
      route: "/users/:id",
      httpMethod: "GET",
      header: [{ path: "Accept", assertAction: "contains", value: "json" }],
    },
    response: {
      statusCode: 200,
      headers: { "Content-Type": ["application/json"] },
      payload: { id: "$.pathParam.id", name: "$.fake.FirstName", email: "$.fake.Email", at: "$.fake.RFC3339" },
    },
    tags: ["example"],
  };
}
