// HTTP mocks: the route after /stubs/<namespace> (with pathPrefix), the
// method as selector, conditions on body, query parameters and headers.
// A mock with only `routePattern` sits at `*` below its pathPrefix; the
// pattern itself is checked by the engine (compile-mock.ts, pathPattern).
import { joinRoute } from "../route";
import type { Placer } from "./placement";

export const placeHttp: Placer = (def) => {
  const http = def.http;
  if (!http) return null;
  return {
    route: joinRoute(def.pathPrefix, http.route ?? "*"),
    selector: http.httpMethod ?? null,
    conditions: { conditions: http.conditions, queryParams: http.queryParams, header: http.header, sortArray: http.sortArray },
  };
};
