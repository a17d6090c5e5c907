// Generate a mock from a response (inline, or a history entry of the caller).
import { testerMockEndpoints as e } from "@/server/contracts/tester-mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { mockFromResponse } from "@/server/services/tester/mocks-from-traffic";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.mockFromResponse, ({ actor, namespace, body }) => mockFromResponse(actor, namespace, body));
