declare module "autocannon" {
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(opts: { url: string; method?: string; connections?: number; duration?: number; body?: string; headers?: Record<string, string> }): Promise<Result>;
  export default autocannon;
}
