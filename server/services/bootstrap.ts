// First start: the admin user and the `sandbox` namespace. Idempotent.
import { randomBase62 } from "@/server/lib/crypto";
import { hashPassword } from "@/server/lib/password";
import { db } from "@/server/db/client";
import { recordAudit } from "./audit";
import { DEFAULT_NAMESPACE } from "./namespace-access";

export interface BootstrapResult {
  adminCreated: boolean;
  generatedPassword?: string;
  adminUsername: string;
}

export async function bootstrap(opts: { adminUsername?: string; adminPassword?: string } = {}): Promise<BootstrapResult> {
  const adminUsername = opts.adminUsername || "admin";
  let admin = await db().user.findUnique({ where: { username: adminUsername } });
  let generatedPassword: string | undefined;
  let adminCreated = false;
  if (!admin) {
    const password = opts.adminPassword || (generatedPassword = randomBase62(20));
    admin = await db().user.upsert({
      where: { username: adminUsername },
      create: { username: adminUsername, role: "admin", fullName: "Administrator", passwordHash: await hashPassword(password) },
      update: {},
    });
    adminCreated = true;
    await recordAudit({ actorName: "system", action: "bootstrap.admin_create", targetType: "user", targetId: admin.id });
  }
  // Created once; later starts leave it (and its members) as people changed them.
  const sandbox = await db().namespace.findUnique({ where: { name: DEFAULT_NAMESPACE }, select: { id: true } });
  if (!sandbox) {
    await db().namespace.create({
      data: {
        name: DEFAULT_NAMESPACE,
        description: "Default namespace",
        ownerId: admin.id,
        memberships: { create: { userId: admin.id, role: "owner" } },
      },
    });
  }
  return { adminCreated, generatedPassword, adminUsername };
}
