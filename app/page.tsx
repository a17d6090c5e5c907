import { redirect } from "next/navigation";
import { serverContext } from "./_trpc/server";

// A signed-in user starts at the dashboard of their namespace.
export default async function Home() {
  const ctx = await serverContext();
  redirect(ctx.actor ? "/dashboard" : "/login");
}
