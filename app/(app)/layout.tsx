import { redirect } from "next/navigation";
import { headers } from "next/headers";
import { PATHNAME_HEADER } from "@/components/lib/pathname-header";
import { serverCaller, serverContext } from "@/app/_trpc/server";
import { AppShell } from "./_components/app-shell";

/** Every page in here needs a signed-in user; others are sent to log in and brought back after. */
export default async function AppLayout({ children }: { children: React.ReactNode }) {
  const ctx = await serverContext();
  if (!ctx.actor) {
    const path = (await headers()).get(PATHNAME_HEADER) ?? "/";
    const query = new URLSearchParams({ next: path });
    // A stale cookie (expired session, disabled account) deserves a word; no cookie at all does not.
    if (ctx.authError) query.set("error", ctx.authError.message);
    redirect(`/login?${query}`);
  }
  const me = await (await serverCaller()).auth.me();
  return <AppShell me={me}>{children}</AppShell>;
}
