import { endpoint } from "./endpoint";

export const eventEndpoints = {
  stream: endpoint({
    method: "GET",
    path: "/api/v1/events",
    tag: "Events",
    summary:
      "Server-sent events of the namespace: `stub.hit` {mockId, method, url, status, durationMs, at}, `stub.miss` {method, path, at}, `mocks.changed` {at}; a `ping` comment every 15 s",
    auth: "user",
    namespaced: true,
    permission: "read",
    produces: "text/event-stream",
  }),
} as const;
