import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isRequestId, newRequestId } from "./request-meta";

describe("newRequestId", () => {
  it("is a v4-shaped UUID that the server accepts back as a request id", () => {
    const id = newRequestId();
    expect(z.string().uuid().safeParse(id).success).toBe(true);
    expect(id[14]).toBe("4");
    expect(isRequestId(id)).toBe(true);
  });

  it("never repeats within a process", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newRequestId()));
    expect(ids.size).toBe(10_000);
  });
});
