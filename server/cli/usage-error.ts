// A problem with what the user asked (an unknown option, a file that is not
// a collection): exit code 2 with a message, never a stack trace.
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;
