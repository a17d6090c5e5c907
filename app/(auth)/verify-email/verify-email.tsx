"use client";
import { useMutation } from "@tanstack/react-query";
import { Loader2 } from "lucide-react";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader } from "@/components/ui/card";
import { VerifyEmailQuery } from "@/server/contracts/auth";

export function VerifyEmail({ token }: { token: string }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions());
  const validToken = VerifyEmailQuery.safeParse({ token }).success;
  // The token is single-use: run once per page load, even if effects run twice.
  const started = useRef(false);
  useEffect(() => {
    if (!validToken || started.current) return;
    started.current = true;
    verify.mutate({ token });
  }, [token, validToken, verify]);

  return (
    <Card>
      <CardHeader className="items-center text-center">
        <h1 className="text-xl font-semibold">Verify your e-mail address</h1>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!validToken ? (
          <Alert variant="error" title="This verification link is incomplete">
            Open the link from the e-mail exactly as it was sent, or send a new one from your profile.
          </Alert>
        ) : verify.isSuccess ? (
          <Alert variant="success" title="E-mail address verified">
            Thank you. Password-reset links can now be sent to this address.
          </Alert>
        ) : verify.isError ? (
          <ApiErrorAlert error={verify.error} title="The address could not be verified" />
        ) : (
          <p role="status" className="flex items-center justify-center gap-2 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" aria-hidden /> Verifying…
          </p>
        )}
        <Button asChild variant="outline" className="w-full">
          <Link href="/settings/profile">Go to your profile</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
