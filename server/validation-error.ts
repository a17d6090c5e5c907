// A zod failure turned into the 400 of the error envelope, naming each field:
// shared by the REST adapter, tRPC and the services that validate nested input.
import type { z } from "zod";
import { errors } from "@/server/errors";

export interface FieldProblem {
  location: "path" | "query" | "body" | "header";
  field: string;
  message: string;
}

/** A zod failure as a 400 whose details name each offending field. */
export function validationError(error: z.ZodError, location: FieldProblem["location"], fieldPrefix: string[] = []) {
  const details: FieldProblem[] = error.issues.map((issue) => ({
    location,
    field: [...fieldPrefix, ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
  const first = details[0];
  const where = first?.field ? `${location} field '${first.field}'` : location;
  return errors.validation(`Invalid ${where}: ${first?.message ?? "invalid input"}`, details);
}
