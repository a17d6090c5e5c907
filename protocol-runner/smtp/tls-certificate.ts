// The certificate STARTTLS offers: self-signed, generated on first use and
// kept in memory for the runner's life (shared by every SMTP listener). A
// mock's clients are told not to verify it (nodemailer `tls.rejectUnauthorized:
// false`), so nothing is gained by keeping it on disk, and no private key
// lingers there. smtp-server's built-in certificate is not used: its key is
// published in the npm package.

export interface TlsCertificate {
  key: string;
  cert: string;
}

let pending: Promise<TlsCertificate> | undefined;

async function generateCertificate(): Promise<TlsCertificate> {
  // Imported on first use (a second of loading), like the certificate itself.
  const { generate } = await import("selfsigned");
  const pems = await generate([{ name: "commonName", value: "polymock-smtp" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notAfterDate: new Date(Date.now() + 5 * 365 * 24 * 3600_000),
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }, { type: 7, ip: "127.0.0.1" }, { type: 7, ip: "::1" }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

export function tlsCertificate(): Promise<TlsCertificate> {
  pending ??= generateCertificate();
  // A failure is retried by the next listener that needs it.
  pending.catch(() => (pending = undefined));
  return pending;
}
