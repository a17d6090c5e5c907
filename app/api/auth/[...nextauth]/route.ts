// next-auth (v4, app router). The options are built per request because the
// providers are admin-configured rows; see server/next-auth/options.ts.
import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { buildAuthOptions } from "@/server/next-auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(req: NextRequest, ctx: Context): Promise<Response> {
  return NextAuth(req, ctx, await buildAuthOptions(req));
}

export { handler as GET, handler as POST };
