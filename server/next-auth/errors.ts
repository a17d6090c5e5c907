// Polymock's own reasons for refusing an OAuth/OIDC sign-in (the signIn
// callback in options.ts), sent back as /login?error=<code>, with
// the message to show. next-auth's own codes (OAuthCallback, Callback…) come
// the same way. No imports, so the login page may use this file in the browser.

export const SIGN_IN_REFUSALS = {
  AccountDisabled: "Your account is disabled. Ask an administrator.",
  AccountNotProvisioned: "There is no Polymock account for this sign-in, and this provider does not create accounts. Ask an administrator.",
  OAuthAccountNotLinked:
    "An account with this e-mail address already exists. Sign in the way you usually do; an administrator can link this sign-in to it.",
  AlreadySignedIn: "You are signed in as another account. Log out first, then sign in with this provider.",
} as const;

export type SignInRefusal = keyof typeof SIGN_IN_REFUSALS;
