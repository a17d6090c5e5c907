import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/api/root";

type Outputs = inferRouterOutputs<AppRouter>["smtpMailbox"];
export type MailRow = Outputs["list"]["messages"][number];
export type MailFull = Outputs["get"];
