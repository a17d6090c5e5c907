// .proto → collection on the fleet tracker files (two files, one importing the other, every method kind).
import { describe, expect, it } from "vitest";
import { protoToCollection } from "./proto";
import { generatorFixture, requestsOf } from "./test-helpers";

const FILES = [
  { name: "fleet/v1/common.proto", content: generatorFixture("fleet/v1/common.proto") },
  { name: "fleet/v1/tracker.proto", content: generatorFixture("fleet/v1/tracker.proto") },
];

describe("protoToCollection", () => {
  it("gives a folder per service and a request per method: the method's path and an example message", () => {
    const { document, warnings, files } = protoToCollection({ files: FILES });
    expect(files.map((f) => f.name)).toEqual(FILES.map((f) => f.name));
    expect(document.items).toHaveLength(1);
    const folder = document.items[0];
    expect(folder.name).toMatch(/Tracker$/);
    const requests = requestsOf(document.items);
    expect(requests.map((r) => r.name)).toEqual(["GetVehicle", "WatchPositions", "RecordTrip", "Dispatch"]);
    const get = requests[0].request;
    expect(get).toMatchObject({ kind: "http", method: "POST", url: `{{grpcUrl}}/${folder.name}/GetVehicle` });
    expect(get.headers).toContainEqual(expect.objectContaining({ key: "Content-Type", value: "application/grpc+json" }));
    expect(typeof JSON.parse(get.body.raw!.replace(/\{\{\$\w+\}\}/g, "0"))).toBe("object");
    expect(document.collection.variables).toContainEqual(expect.objectContaining({ key: "grpcUrl", value: "http://localhost:5773" }));
    // Client and bidirectional streaming keep one example message.
    expect(warnings.map((w) => w.message).join("\n")).toMatch(/RecordTrip streams its requests/);
  });

  it("imports only the services asked for", () => {
    const { document } = protoToCollection({ files: FILES }, { only: new Set(["nothing.Here"]) });
    expect(document.items).toEqual([]);
  });

  it("refuses a file that does not parse, with its line", () => {
    expect(() => protoToCollection('syntax = "proto3";\nservice S { rpc X(In) returns (Out) }')).toThrow(expect.objectContaining({ location: expect.objectContaining({ line: expect.any(Number) }) }));
  });
});
