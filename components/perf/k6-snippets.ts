// Short pieces of k6 code the editor inserts at the cursor (the server's
// snippets are whole scripts to start from; these are the lines one adds
// while writing one). Each runs on this load engine.
export interface K6Insert {
  title: string;
  code: string;
}

export const K6_INSERTS: readonly K6Insert[] = [
  { title: "GET request with a check", code: 'const res = http.get(`${BASE_URL}/`);\ncheck(res, { "status is 200": (r) => r.status === 200 });\n' },
  {
    title: "POST JSON",
    code: 'const res = http.post(`${BASE_URL}/items`, JSON.stringify({ name: "item" }), { headers: { "Content-Type": "application/json" } });\ncheck(res, { "created": (r) => r.status === 201 });\n',
  },
  { title: "Group of requests", code: 'group("checkout", () => {\n  http.get(`${BASE_URL}/cart`);\n  http.post(`${BASE_URL}/orders`);\n});\n' },
  { title: "Parallel requests (batch)", code: 'const [home, about] = http.batch([\n  ["GET", `${BASE_URL}/`],\n  ["GET", `${BASE_URL}/about`],\n]);\n' },
  { title: "Check a JSON field", code: 'check(res, { "has an id": (r) => r.json("id") !== undefined });\n' },
  { title: "Think time", code: "sleep(1);\n" },
  { title: "Custom Trend metric", code: '// At the top of the script: import { Trend } from "k6/metrics";\nconst waitTime = new Trend("wait_time", true);\nwaitTime.add(res.timings.waiting);\n' },
  { title: "Custom Counter metric", code: '// At the top of the script: import { Counter } from "k6/metrics";\nconst orders = new Counter("orders");\norders.add(1);\n' },
  { title: "Test data from a file (SharedArray)", code: '// In the init context; add users.json under Files.\n// import { SharedArray } from "k6/data";\nconst users = new SharedArray("users", () => JSON.parse(open("users.json")));\nconst user = users[__VU % users.length];\n' },
  { title: "Options: ramp with thresholds", code: 'export const options = {\n  stages: [\n    { duration: "30s", target: 20 },\n    { duration: "1m", target: 20 },\n    { duration: "10s", target: 0 },\n  ],\n  thresholds: {\n    http_req_duration: ["p(95)<500"],\n    http_req_failed: ["rate<0.01"],\n  },\n};\n' },
  { title: "setup() and teardown()", code: "export function setup() {\n  // Runs once before the VUs start; what it returns is passed to default().\n  return { token: \"…\" };\n}\n\nexport function teardown(data) {\n  // Runs once after the test.\n}\n" },
];
