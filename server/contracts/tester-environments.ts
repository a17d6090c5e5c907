// API tester environments: named sets of variables of a namespace, sent as
// clients write them ({name: value}) with the names whose values are secret.
// Secret values are stored encrypted and shown as SECRET_MASK; a PUT that
// sends the mask for a secret keeps the stored value, so a round trip through
// a form never replaces a secret with its mask. Each user chooses one active
// environment per namespace. Browser-safe.
import { z } from "zod";
import { NamespaceName, Timestamp } from "./common";

export const MAX_ENVIRONMENT_VARIABLES = 1000;
const MAX_VALUE_CHARS = 100_000;

const BodyNamespace = NamespaceName.optional().describe("names the namespace, like ?namespace=; must agree with it when both are given");
const EnvName = z.string().trim().min(1, "must not be empty").max(255, "at most 255 characters");

/** Values are text; numbers and booleans (as clients often send them) are kept as their text. */
const EnvValue = z
  .union([z.string().max(MAX_VALUE_CHARS, `at most ${MAX_VALUE_CHARS} characters`), z.number(), z.boolean()])
  .transform((v) => String(v));

export const EnvironmentVariables = z
  .record(z.string(), EnvValue)
  .superRefine((vars, ctx) => {
    const names = Object.keys(vars);
    if (names.length > MAX_ENVIRONMENT_VARIABLES) ctx.addIssue({ code: "custom", path: [], message: `at most ${MAX_ENVIRONMENT_VARIABLES} variables` });
    for (const name of names) {
      if (name.length === 0 || name.length > 255) ctx.addIssue({ code: "custom", path: [name], message: "a variable name has 1 to 255 characters" });
    }
  })
  .describe("name → value");

export const SecretNames = z
  .array(z.string().min(1).max(255))
  .max(MAX_ENVIRONMENT_VARIABLES)
  .describe("names of variables whose values are secret: stored encrypted, shown masked");

function secretsAreVariables(value: { variables?: Record<string, string>; secrets?: string[] }, ctx: z.RefinementCtx) {
  if (!value.variables || !value.secrets) return;
  value.secrets.forEach((name, i) => {
    if (!Object.prototype.hasOwnProperty.call(value.variables, name)) ctx.addIssue({ code: "custom", path: ["secrets", i], message: `'${name}' is not one of the variables` });
  });
}

export const CreateEnvironmentInput = z
  .object({
    name: EnvName,
    variables: EnvironmentVariables.default({}),
    secrets: SecretNames.default([]),
    namespace: BodyNamespace,
  })
  .strict()
  .superRefine(secretsAreVariables);
export type CreateEnvironmentInput = z.infer<typeof CreateEnvironmentInput>;

/** Fields given replace the stored ones; `variables` replaces the whole map (a secret sent as the mask keeps its value). */
export const UpdateEnvironmentInput = z
  .object({
    name: EnvName.optional(),
    variables: EnvironmentVariables.optional(),
    secrets: SecretNames.optional(),
    namespace: BodyNamespace,
  })
  .strict()
  .superRefine(secretsAreVariables);
export type UpdateEnvironmentInput = z.infer<typeof UpdateEnvironmentInput>;

export const EnvironmentView = z.object({
  id: z.string().uuid(),
  namespace: z.string(),
  name: z.string(),
  variables: z.record(z.string(), z.string()).describe("secret values are the mask"),
  secrets: z.array(z.string()),
  isActive: z.boolean().describe("the caller's active environment in this namespace"),
  createdBy: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type EnvironmentView = z.infer<typeof EnvironmentView>;

export const EnvironmentList = z.object({ environments: z.array(EnvironmentView), count: z.number().int() });

export const ActiveEnvironment = z.object({
  environment: EnvironmentView.nullable().describe("null: the caller has no active environment in this namespace"),
});

/** An environment with its real values, for the request executor only (never returned by the API). */
export interface EnvironmentForRun {
  id: string;
  name: string;
  values: Record<string, string>;
  secrets: string[];
}
