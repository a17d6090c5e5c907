// Node's socket, DNS, TLS and parser errors as the SendError codes and
// messages a user sees.
import { describe, expect, it } from "vitest";
import { BlockedTargetError } from "@/server/lib/ssrf";
import { SendError, toSendError } from "./send-error";

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });
const url = new URL("https://api.test:8443/x");

describe("toSendError", () => {
  it.each([
    [errno("ECONNREFUSED"), "connection_refused", /api\.test:8443 refused the connection/],
    [errno("EHOSTUNREACH"), "connection_refused", /cannot be reached/],
    [errno("ENOTFOUND"), "dns", /Could not resolve the host name of api\.test:8443/],
    [errno("EAI_AGAIN"), "dns", /resolve/],
    [errno("ETIMEDOUT"), "timeout", /timed out/],
    [errno("DEPTH_ZERO_SELF_SIGNED_CERT"), "tls", /self-signed.*Turn off TLS certificate verification/],
    [errno("CERT_HAS_EXPIRED"), "tls", /has expired/],
    [errno("ERR_TLS_CERT_ALTNAME_INVALID"), "tls", /does not name this host/],
    [errno("ERR_SSL_WRONG_VERSION_NUMBER", "wrong version number"), "tls", /TLS handshake with api\.test:8443 failed/],
    [errno("ECONNRESET"), "protocol", /closed the connection/],
    [errno("HPE_INVALID_CONSTANT", "Expected HTTP/"), "protocol", /not valid HTTP/],
    [errno("ERR_INVALID_CHAR", 'Invalid character in header content ["X"]'), "protocol", /could not be sent as written/],
    [errno("ABORT_ERR"), "aborted", /cancelled/],
    [new Error("something odd"), "protocol", /something odd/],
  ])("%s → %s", (err, code, message) => {
    const e = toSendError(err, url);
    expect(e).toBeInstanceOf(SendError);
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
    expect(e.message).not.toMatch(/\n\s+at /);
  });

  it("keeps the outbound policy's reason", () => {
    const e = toSendError(new BlockedTargetError("169.254.169.254", "metadata", "blocked: metadata"), url);
    expect(e).toMatchObject({ code: "blocked", message: "blocked: metadata", details: { reason: "metadata", url: url.href } });
  });

  it("passes a SendError through", () => {
    const original = new SendError("timeout", "late");
    expect(toSendError(original, url)).toBe(original);
  });
});
