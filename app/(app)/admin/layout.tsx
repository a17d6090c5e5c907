import { ShieldAlert } from "lucide-react";
import Link from "next/link";
import { isAdmin } from "@/server/auth/actor";
import { serverContext } from "@/app/_trpc/server";
import { Button } from "@/components/ui/button";

/** Administration pages: non-admins get a 403 page inside the app shell instead of the page. */
export default async function AdminLayout({ children }: { children: React.ReactNode }) {
  const ctx = await serverContext();
  if (ctx.actor && isAdmin(ctx.actor)) return children;
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-4 py-16 text-center">
      <div className="flex size-12 items-center justify-center rounded-full bg-destructive/10">
        <ShieldAlert className="size-6 text-destructive" aria-hidden />
      </div>
      <p className="text-sm font-medium text-muted-foreground">Error 403</p>
      <h1 className="text-2xl font-semibold tracking-tight">You do not have access to this page</h1>
      <p className="max-w-md text-sm text-muted-foreground">
        Administration pages need the admin role. If you need to change users, namespaces or sign-in settings, ask an administrator.
      </p>
      <Button asChild variant="outline">
        <Link href="/settings/profile">Go to your profile</Link>
      </Button>
    </div>
  );
}
