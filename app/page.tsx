import { redirect } from "next/navigation";
import { serverContext } from "./_trpc/server";

// The dashboard comes later; until then a signed-in user starts at their profile.
export default async function Home() {
  const ctx = await serverContext();
  redirect(ctx.actor ? "/settings/profile" : "/login");
}
