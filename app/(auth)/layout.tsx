import { Logo } from "@/components/logo";

/** Pages for people who are not signed in: a centred card under the product name. */
export default function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-8 bg-muted/40 px-4 py-12">
      <Logo className="text-xl" />
      <div className="w-full max-w-sm">{children}</div>
    </main>
  );
}
