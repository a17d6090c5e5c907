// Shapes the workspace receives from the API, from the contracts.
import type { z } from "zod";
import type { ExecuteWithScriptsResult } from "@/server/contracts/tester-execute-endpoints";

export type ExecuteWithScriptsResultView = z.infer<typeof ExecuteWithScriptsResult>;
