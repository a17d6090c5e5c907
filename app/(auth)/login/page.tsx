import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeNext } from "@/components/lib/safe-next";
import { serverCaller, serverContext } from "@/app/_trpc/server";
import { LoginForm } from "./_components/login-form";

export const metadata: Metadata = { title: "Log in" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const next = safeNext(first(params.next));
  const ctx = await serverContext();
  if (ctx.actor) redirect(next);
  const { providers } = await (await serverCaller()).auth.providers();
  return <LoginForm providers={providers} next={next} error={first(params.error) ?? null} />;
}
