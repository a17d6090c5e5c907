// /tester/schedules: cron schedules of collection runs.
import type { Metadata } from "next";
import { SchedulesPage } from "./_components/schedules-page";

export const metadata: Metadata = { title: "Schedules" };

export default function Page() {
  return <SchedulesPage />;
}
