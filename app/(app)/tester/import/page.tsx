// /tester/import: the import wizard (every format of the spec), with a preview before saving.
import type { Metadata } from "next";
import { ImportWizard } from "./_components/import-wizard";

export const metadata: Metadata = { title: "Import into the API tester" };

export default function Page() {
  return <ImportWizard />;
}
