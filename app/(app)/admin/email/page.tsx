import type { Metadata } from "next";
import { EmailPage } from "./_components/email-page";

export const metadata: Metadata = { title: "E-mail" };

export default function Page() {
  return <EmailPage />;
}
