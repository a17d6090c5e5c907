// /perf/configs/<id>/trend: the trend is a tab of the load test's page.
import { redirect } from "next/navigation";

export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) if (typeof v === "string") q.set(k, v);
  q.set("tab", "trend");
  redirect(`/perf/configs/${encodeURIComponent(decodeURIComponent(id))}?${q}`);
}
