// A failed OAuth/OIDC sign-in comes back as /login?error=<Code>: next-auth's
// own codes, or Polymock's refusals (server/next-auth/errors.ts). People
// should read what happened, not the code; any other text is shown as sent.
import { SIGN_IN_REFUSALS } from "@/server/next-auth/errors";

const NEXT_AUTH_MESSAGES: Record<string, string> = {
  OAuthSignin: "The sign-in with the identity provider could not be started.",
  OAuthCallback: "The identity provider's answer could not be verified. Try again.",
  OAuthCreateAccount: "No account could be created for this identity.",
  Callback: "The sign-in could not be completed.",
  AccessDenied: "Access denied. Your account may be disabled or not allowed to sign in this way.",
  Configuration: "The identity provider is not configured correctly; ask an administrator.",
  SessionRequired: "Please log in to continue.",
  Default: "The sign-in failed.",
};

const MESSAGES: Record<string, string> = { ...NEXT_AUTH_MESSAGES, ...SIGN_IN_REFUSALS };

export function oauthErrorMessage(error: string): string {
  return Object.hasOwn(MESSAGES, error) ? MESSAGES[error] : error.slice(0, 300);
}
