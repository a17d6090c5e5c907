// The SMTP placer's mapping of the five condition lists, and the reply code/text rule.
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { placeSmtp, smtpReply } from "./smtp";

const place = (smtp: unknown) => placeSmtp(MockInput.parse({ smtp, response: {} }) as never);

describe("placeSmtp", () => {
  it("puts each list on its field: sender, subject, body in the mail, recipients in the envelope list, headers by name", () => {
    const c = (value: string, path?: string) => ({ assertAction: "equals", value, ...(path ? { path } : {}) });
    const placement = place({ serverName: "inbox", senderConditions: [c("a")], recipientConditions: [c("b")], subjectConditions: [c("c")], bodyConditions: [c("d")], headerConditions: [c("e", "X-Tag")] });
    expect(placement).toEqual({
      route: "/inbox",
      selector: null,
      conditions: {
        conditions: [expect.objectContaining({ path: "$.from", value: "a" }), expect.objectContaining({ path: "$.subject", value: "c" }), expect.objectContaining({ path: "$.text", value: "d" })],
        queryParams: [expect.objectContaining({ path: "to", value: "b" })],
        header: [expect.objectContaining({ path: "X-Tag", value: "e" })],
      },
    });
  });

  it("a mock without serverName takes any server's mail (a parameter route, so named ones rank first)", () => {
    expect(place({})?.route).toBe("/:server");
  });

  it("a header condition must name its header", () => {
    const parsed = MockInput.safeParse({ smtp: { headerConditions: [{ assertAction: "any" }] } });
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["smtp.headerConditions.0.path"]);
  });
});

describe("smtpReply", () => {
  it.each([
    [200, undefined, 250, "OK: message queued"],
    [200, "queued as $id", 250, "queued as $id"],
    [250, "fine", 250, "fine"],
    [0, "zero is no SMTP code", 250, "zero is no SMTP code"],
    [550, "no such user", 550, "no such user"],
    [451, undefined, 451, "Message rejected"],
    [552, "too\r\nbig", 552, "too big"],
    [200, { id: 1 }, 250, '{"id":1}'],
  ])("status %j with payload %j answers %i %j", (status, payload, code, text) => {
    expect(smtpReply(status, payload)).toEqual({ code, text });
  });
});
