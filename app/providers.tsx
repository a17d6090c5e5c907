"use client";
import { ThemeProvider } from "next-themes";
import { installBackGuard } from "@/components/lib/back-guard";
import { configureFormMessages } from "@/components/lib/zod-messages";
import { Toaster } from "@/components/ui/sonner";
import { TRPCReactProvider } from "./_trpc/client";

configureFormMessages();
// Before the app router mounts: its popstate listener must come after the guard's.
installBackGuard();

export function Providers({ children }: { children: React.ReactNode }) {
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      <TRPCReactProvider>
        {children}
        <Toaster />
      </TRPCReactProvider>
    </ThemeProvider>
  );
}
