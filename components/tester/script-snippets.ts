// The snippets beside the script editor, as in Postman's side list: common
// tests and variable handling, inserted at the cursor. `where` says which
// script a snippet makes sense in (pm.response only exists after the request).

export type ScriptKind = "preRequest" | "test";

export interface ScriptSnippet {
  title: string;
  where: readonly ScriptKind[];
  code: string;
}

const BOTH = ["preRequest", "test"] as const;
const TEST = ["test"] as const;
const PRE = ["preRequest"] as const;

export const SCRIPT_SNIPPETS: readonly ScriptSnippet[] = [
  { title: "Status code is 200", where: TEST, code: 'pm.test("Status code is 200", function () {\n  pm.response.to.have.status(200);\n});\n' },
  { title: "Response time is less than 200ms", where: TEST, code: 'pm.test("Response time is less than 200ms", function () {\n  pm.expect(pm.response.responseTime).to.be.below(200);\n});\n' },
  { title: "JSON value check", where: TEST, code: 'pm.test("Your test name", function () {\n  const jsonData = pm.response.json();\n  pm.expect(jsonData.value).to.eql(100);\n});\n' },
  { title: "Response body contains string", where: TEST, code: 'pm.test("Body matches string", function () {\n  pm.expect(pm.response.text()).to.include("string_you_want_to_search");\n});\n' },
  { title: "Response body is equal to a string", where: TEST, code: 'pm.test("Body is correct", function () {\n  pm.response.to.have.body("response_body_string");\n});\n' },
  { title: "Content-Type header is present", where: TEST, code: 'pm.test("Content-Type is present", function () {\n  pm.response.to.have.header("Content-Type");\n});\n' },
  { title: "Successful POST request", where: TEST, code: 'pm.test("Successful POST request", function () {\n  pm.expect(pm.response.code).to.be.oneOf([201, 202]);\n});\n' },
  { title: "Response matches a JSON Schema", where: TEST, code: 'const schema = {\n  type: "object",\n  required: ["id"],\n  properties: { id: { type: "string" } },\n};\n\npm.test("Schema is valid", function () {\n  pm.response.to.have.jsonSchema(schema);\n});\n' },
  { title: "Save a response value as a variable", where: TEST, code: 'const jsonData = pm.response.json();\npm.environment.set("token", jsonData.token);\n' },
  { title: "Set an environment variable", where: BOTH, code: 'pm.environment.set("variable_key", "variable_value");\n' },
  { title: "Get an environment variable", where: BOTH, code: 'const value = pm.environment.get("variable_key");\n' },
  { title: "Set a collection variable", where: BOTH, code: 'pm.collectionVariables.set("variable_key", "variable_value");\n' },
  { title: "Get a variable", where: BOTH, code: 'const value = pm.variables.get("variable_key");\n' },
  { title: "Clear an environment variable", where: BOTH, code: 'pm.environment.unset("variable_key");\n' },
  { title: "Send a request", where: BOTH, code: 'pm.sendRequest("https://postman-echo.com/get", function (err, response) {\n  console.log(err ? err : response.json());\n});\n' },
  { title: "Add a header to the request", where: PRE, code: 'pm.request.headers.upsert({ key: "X-Request-Id", value: pm.variables.replaceIn("{{$guid}}") });\n' },
  { title: "Skip this request", where: PRE, code: "if (!pm.environment.get(\"token\")) {\n  pm.execution.skipRequest();\n}\n" },
  { title: "Run another request next", where: BOTH, code: 'pm.execution.setNextRequest("Request name");\n' },
  { title: "Log to the console", where: BOTH, code: 'console.log("value:", pm.variables.get("variable_key"));\n' },
];

export function snippetsFor(kind: ScriptKind): ScriptSnippet[] {
  return SCRIPT_SNIPPETS.filter((s) => s.where.includes(kind));
}
