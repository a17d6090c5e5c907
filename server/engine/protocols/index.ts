// The placers of the protocols served by the web process. A protocol missing
// here is not served over HTTP (its mocks are skipped when indexes are built).
import type { Protocol } from "@/server/contracts/mock";
import { placeGraphql } from "./graphql";
import { placeHttp } from "./http";
import type { Placer, ServedProtocol } from "./placement";
import { placeSoap } from "./soap";

export const PLACERS: Partial<Record<ServedProtocol, Placer>> = {
  http: placeHttp,
  graphql: placeGraphql,
  soap: placeSoap,
};

export function placerFor(protocol: Protocol): Placer | undefined {
  return PLACERS[protocol as ServedProtocol];
}

export type { Placement, Placer, ServedProtocol } from "./placement";
