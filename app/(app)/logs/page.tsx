import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { RequestLogView } from "./_components/request-log-view";

export const metadata: Metadata = { title: "Request log" };

export default function LogsPage() {
  return (
    <>
      <PageHeader title="Request log" description="Every request a mock of this namespace answered, newest first, live." />
      <RequestLogView />
    </>
  );
}
