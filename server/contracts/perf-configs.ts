// Saved load tests (the spec's "performance configs") and their cron
// schedules: what a user keeps and re-runs, as opposed to one run's result
// (server/contracts/perf.ts). A config is a k6 script with run options that
// override the script's own, __ENV values and open()-able files.
import { z } from "zod";
import { K6Options, K6Script, PerfEnvironment, PerfFiles, PerfStatus } from "./perf";
import { CreateScheduleInput } from "./tester-tests-schedules";

const name = z.string().trim().min(1).max(200);
const description = z.string().max(10_000);
const collectionIds = z.array(z.string().uuid()).max(100).describe("the collections the script was generated from (perf/run-collection), for reference");
const environmentId = z.string().uuid().nullable().describe("an API tester environment of the namespace: its variables become __ENV values at each run (the config's own environment wins); null: none");

export const CreatePerfConfigInput = z
  .object({
    name,
    description: description.default(""),
    script: K6Script,
    options: K6Options.default({}),
    environment: PerfEnvironment.default({}).describe("__ENV values (readable by whoever reads the namespace; keep secrets in an API tester environment's secret variables and name it in environmentId)"),
    files: PerfFiles.default({}),
    collectionIds: collectionIds.default([]),
    environmentId: environmentId.default(null),
  })
  .strict();
export type CreatePerfConfigInput = z.infer<typeof CreatePerfConfigInput>;

export const UpdatePerfConfigInput = z
  .object({
    name: name.optional(),
    description: description.optional(),
    script: K6Script.optional(),
    options: K6Options.optional(),
    environment: PerfEnvironment.optional(),
    files: PerfFiles.optional(),
    collectionIds: collectionIds.optional(),
    environmentId: environmentId.optional(),
  })
  .strict();
export type UpdatePerfConfigInput = z.infer<typeof UpdatePerfConfigInput>;

export const PerfConfigListQuery = z.object({ search: z.string().max(200).optional().describe("part of the name or description, any case") });
export type PerfConfigListQuery = z.infer<typeof PerfConfigListQuery>;

export const PerfLastResult = z
  .object({ id: z.string(), status: PerfStatus, createdAt: z.string(), finishedAt: z.string().nullable() })
  .nullable()
  .describe("the newest run of this config");

/** A config in lists: everything but the script, the files' contents and the __ENV values. */
export const PerfConfigRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  collectionIds: z.array(z.string()),
  environmentId: z.string().nullable(),
  envNames: z.array(z.string()).describe("names of its __ENV values"),
  fileNames: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastResult: PerfLastResult,
});
export type PerfConfigRow = z.infer<typeof PerfConfigRow>;

export const PerfConfigView = PerfConfigRow.extend({
  script: z.string(),
  options: K6Options,
  environment: z.record(z.string(), z.string()),
  files: z.record(z.string(), z.string()),
});
export type PerfConfigView = z.infer<typeof PerfConfigView>;

export const PerfConfigList = z.object({ configs: z.array(PerfConfigRow), total: z.number().int() });

export const RunPerfConfigInput = z
  .object({
    options: K6Options.optional().describe("replaces the config's saved options for this run (they still override the script's)"),
    environment: PerfEnvironment.optional().describe("__ENV values for this run, each over the saved one of the same name"),
    runnerId: z.string().uuid().optional().describe("run on this runner agent (503 when it is not available)"),
  })
  .strict();
export type RunPerfConfigInput = z.infer<typeof RunPerfConfigInput>;

// ---- Schedules ------------------------------------------------------------------

const cron = CreateScheduleInput.shape.cron;
const timezone = CreateScheduleInput.shape.timezone;

export const CreatePerfScheduleInput = z
  .object({
    name,
    configId: z.string().uuid().describe("the saved config each occurrence runs"),
    cron,
    timezone,
    enabled: z.boolean().default(true),
  })
  .strict();
export type CreatePerfScheduleInput = z.infer<typeof CreatePerfScheduleInput>;

export const UpdatePerfScheduleInput = z
  .object({
    name: name.optional(),
    configId: z.string().uuid().optional(),
    cron: cron.optional(),
    timezone: timezone.removeDefault().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdatePerfScheduleInput = z.infer<typeof UpdatePerfScheduleInput>;

export const PerfScheduleView = z.object({
  id: z.string(),
  name: z.string(),
  configId: z.string(),
  configName: z.string().nullable().describe("null when the config is gone"),
  cron: z.string(),
  timezone: z.string(),
  enabled: z.boolean(),
  runsAs: z.string().nullable().describe("username of whoever last saved the schedule: occurrences run as them, checked at each occurrence"),
  nextRunAt: z.string().nullable().describe("the next occurrence; null while disabled"),
  nextOccurrences: z.array(z.string()).describe("the next five occurrences (UTC instants) computed in the schedule's time zone"),
  lastRunAt: z.string().nullable(),
  lastResultId: z.string().nullable(),
  lastStatus: z.string().nullable().describe("the last result's status (live), or 'not run' / 'skipped'"),
  lastError: z.string().nullable().describe("why the last occurrence did not run, cleared by the next run"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PerfScheduleView = z.infer<typeof PerfScheduleView>;
export const PerfScheduleList = z.object({ schedules: z.array(PerfScheduleView), total: z.number().int() });
