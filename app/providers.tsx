"use client";
import { ThemeProvider } from "next-themes";
import { configureFormMessages } from "@/components/lib/zod-messages";
import { Toaster } from "@/components/ui/sonner";
import { TRPCReactProvider } from "./_trpc/client";

configureFormMessages();

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
