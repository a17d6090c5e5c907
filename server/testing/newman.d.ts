// The part of Newman's library API the Postman parity test uses (Newman ships no types).
declare module "newman" {
  interface RunOptions {
    collection: unknown;
    environment?: unknown;
    reporters?: string[];
  }
  interface Execution {
    item: { name: string };
    assertions?: { assertion: string; skipped?: boolean; error?: unknown }[];
  }
  interface Summary {
    run: { executions: Execution[] };
  }
  const newman: { run(options: RunOptions, callback: (err: Error | null, summary: Summary) => void): unknown };
  export default newman;
}
