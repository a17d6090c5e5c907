// Generate mocks from a collection's recorded or freshly executed responses.
import { testerMockEndpoints as e } from "@/server/contracts/tester-mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { mocksFromCollection } from "@/server/services/tester/mocks-from-traffic";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.mocksFromCollection, ({ actor, namespace, body }) => mocksFromCollection(actor, namespace, body));
