// A real OpenLDAP server for *.db.test.ts: slapd from Debian's `slapd` package,
// configured from scratch in a temp dir (never /etc/ldap or /var/lib/ldap), so
// it runs as any user, root included, and leaves nothing behind. It speaks
// plain LDAP with StartTLS and LDAPS, with a self-signed certificate made by
// `openssl`, so TLS settings are tested against the real thing too.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "ldapts";

const SLAPD = "/usr/sbin/slapd";
const SLAPADD = "/usr/sbin/slapadd";
const SCHEMA_DIR = "/etc/ldap/schema";
const MODULE_DIR = "/usr/lib/ldap";
const BASE_DN = "dc=example,dc=org";
const ADMIN_DN = `cn=admin,${BASE_DN}`;
const READER_DN = `cn=reader,${BASE_DN}`;

export interface DirectoryUser {
  dn: string;
  uid: string;
  password: string;
  mail: string;
  cn: string;
}

export interface Slapd {
  /** ldap:// (StartTLS available). */
  url: string;
  /** ldaps:// with the same self-signed certificate. */
  ldapsUrl: string;
  baseDn: string;
  /** The read-only service account a provider binds with. */
  bindDn: string;
  bindPassword: string;
  /** The rootdn, for tests that change the directory. */
  adminDn: string;
  adminPassword: string;
  users: Record<"alice" | "bob" | "carol", DirectoryUser>;
  /** A uid that exists twice (people and contractors): a login must refuse it. */
  duplicateUid: string;
  stop(): Promise<void>;
}

function person(uid: string, cn: string, ou = "people"): DirectoryUser {
  return { dn: `uid=${uid},ou=${ou},${BASE_DN}`, uid, password: `${uid}-pw-${randomBytes(4).toString("hex")}`, mail: `${uid}@example.org`, cn };
}

/** {SSHA}: what `slappasswd -s` produces, without spawning it. */
function ssha(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash("sha1").update(password).update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString("base64")}`;
}

async function makeCertificate(dir: string) {
  await promisify(execFile)("openssl", [
    ...["req", "-x509", "-nodes", "-days", "2", "-subj", "/CN=localhost"],
    ...["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"],
    ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ...["-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")],
  ]);
}

function slapdConf(dir: string, adminPassword: string): string {
  return [
    ...["core", "cosine", "inetorgperson"].map((s) => `include ${SCHEMA_DIR}/${s}.schema`),
    `modulepath ${MODULE_DIR}`,
    "moduleload back_mdb",
    `pidfile "${dir}/slapd.pid"`,
    `argsfile "${dir}/slapd.args"`,
    `TLSCertificateFile "${dir}/cert.pem"`,
    `TLSCertificateKeyFile "${dir}/key.pem"`,
    "database mdb",
    "maxsize 10485760",
    `suffix "${BASE_DN}"`,
    `rootdn "${ADMIN_DN}"`,
    `rootpw "${adminPassword}"`,
    `directory "${dir}/data"`,
    // Passwords are usable for binding only; everything else is readable, like a typical corporate directory.
    "access to attrs=userPassword by anonymous auth by * none",
    "access to * by * read",
    "",
  ].join("\n");
}

function entry(dn: string, attrs: Record<string, string | string[]>): string {
  const lines = [`dn: ${dn}`];
  for (const [name, value] of Object.entries(attrs)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  return lines.join("\n");
}

function userEntry(u: DirectoryUser): string {
  const sn = u.cn.split(" ").at(-1) ?? u.cn;
  return entry(u.dn, { objectClass: "inetOrgPerson", uid: u.uid, cn: u.cn, sn, mail: u.mail, userPassword: ssha(u.password) });
}

function seedLdif(users: DirectoryUser[], readerPassword: string): string {
  return [
    entry(BASE_DN, { objectClass: ["dcObject", "organization"], dc: "example", o: "Example" }),
    entry(READER_DN, { objectClass: ["organizationalRole", "simpleSecurityObject"], cn: "reader", userPassword: ssha(readerPassword) }),
    entry(`ou=people,${BASE_DN}`, { objectClass: "organizationalUnit", ou: "people" }),
    entry(`ou=contractors,${BASE_DN}`, { objectClass: "organizationalUnit", ou: "contractors" }),
    ...users.map(userEntry),
    "",
  ].join("\n\n");
}

/** A port nothing listens on (right now): also what a test needs for an unreachable server. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function canBind(url: string, dn: string, password: string): Promise<boolean> {
  const client = new Client({ url, connectTimeout: 500, timeout: 1000 });
  try {
    await client.bind(dn, password);
    return true;
  } catch {
    return false;
  } finally {
    await client.unbind().catch(() => {});
  }
}

/** Resolves when the server answers a bind; rejects with slapd's own output if it exits first. */
async function waitUntilReady(child: ChildProcess, url: string, adminPassword: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`slapd exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    if (await canBind(url, ADMIN_DN, adminPassword)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slapd did not accept a bind within 15 s:\n${output()}`);
}

function launch(confFile: string, urls: string[]) {
  // -d 0 keeps slapd in the foreground (a child we can kill) without debug chatter.
  const child = spawn(SLAPD, ["-f", confFile, "-h", urls.join(" "), "-d", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  child.on("error", (err) => collect(Buffer.from(String(err))));
  return { child, output: () => output };
}

async function startOnFreePort(confFile: string, adminPassword: string) {
  let lastError: unknown;
  // Another process may take the port between freePort() and slapd's bind; try a few.
  for (let attempt = 0; attempt < 3; attempt++) {
    const url = `ldap://127.0.0.1:${await freePort()}`;
    const ldapsUrl = `ldaps://127.0.0.1:${await freePort()}`;
    const { child, output } = launch(confFile, [`${url}/`, `${ldapsUrl}/`]);
    try {
      await waitUntilReady(child, url, adminPassword, output);
      return { child, url, ldapsUrl };
    } catch (err) {
      child.kill("SIGKILL");
      lastError = err;
    }
  }
  throw lastError;
}

export async function startSlapd(): Promise<Slapd> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "polymock-slapd-"));
  mkdirSync(path.join(dir, "data"));
  const adminPassword = randomBytes(12).toString("hex");
  const bindPassword = randomBytes(12).toString("hex");
  const users = { alice: person("alice", "Alice Liddell"), bob: person("bob", "Bob Builder"), carol: person("carol", "Carol Danvers") };
  const duplicates = [person("dave", "Dave People"), person("dave", "Dave Contractor", "contractors")];

  const confFile = path.join(dir, "slapd.conf");
  const ldifFile = path.join(dir, "seed.ldif");
  writeFileSync(confFile, slapdConf(dir, adminPassword));
  writeFileSync(ldifFile, seedLdif([...Object.values(users), ...duplicates], bindPassword));
  const cleanupDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    await makeCertificate(dir);
    await promisify(execFile)(SLAPADD, ["-f", confFile, "-l", ldifFile]);
  } catch (err) {
    cleanupDir();
    throw new Error(`preparing slapd failed (are the Debian packages 'slapd' and 'openssl' installed?): ${(err as Error).message}`);
  }

  const { child, url, ldapsUrl } = await startOnFreePort(confFile, adminPassword).catch((err) => {
    cleanupDir();
    throw err;
  });
  const killOnExit = () => {
    child.kill("SIGKILL");
    cleanupDir();
  };
  process.once("exit", killOnExit);

  async function stop() {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      child.kill("SIGKILL");
    }
    cleanupDir();
  }

  return { url, ldapsUrl, baseDn: BASE_DN, bindDn: READER_DN, bindPassword, adminDn: ADMIN_DN, adminPassword, users, duplicateUid: "dave", stop };
}
