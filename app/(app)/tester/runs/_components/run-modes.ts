// The test run modes as the run history names them (server/contracts/tester-run.ts's RUN_MODES).
import type { TestRunSummary } from "@/server/contracts/tester-run";

export type RunMode = TestRunSummary["mode"];

export const MODE_LABEL: Record<RunMode, string> = {
  functional: "Functional",
  load: "Load",
  fuzz: "Fuzz",
  chaos: "Chaos",
  contract: "Contract",
};
