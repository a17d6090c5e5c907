import type { Metadata } from "next";
import { UndefinedRequestsPage } from "./_components/undefined-requests-page";

export const metadata: Metadata = { title: "Undefined requests" };

export default function Page() {
  return <UndefinedRequestsPage />;
}
