// An MCP tool's input schema as form fields, and the fields back as arguments.
import { describe, expect, it } from "vitest";
import { formArguments, formFields } from "./schema-form-model";

const schema = {
  type: "object",
  properties: {
    title: { type: "string", description: "Short title" },
    priority: { type: "string", enum: ["low", "high"] },
    urgent: { type: "boolean" },
    count: { type: "integer" },
    ratio: { type: "number", default: 0.5 },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title", "priority"],
};

describe("formFields", () => {
  it("gives each property a control of its kind, required flags and initial values", () => {
    expect(formFields(schema).map((f) => [f.name, f.kind, f.required, f.initial])).toEqual([
      ["title", "string", true, ""],
      ["priority", "enum", true, "low"],
      ["urgent", "boolean", false, "false"],
      ["count", "integer", false, ""],
      ["ratio", "number", false, "0.5"],
      ["tags", "json", false, ""],
    ]);
    expect(formFields(schema)[1].options).toEqual(["low", "high"]);
  });
});

describe("formArguments", () => {
  const fields = formFields(schema);
  it("converts values to their types and leaves out empty optional fields", () => {
    expect(formArguments(fields, { title: "Printer", priority: "high", urgent: "true", count: "3", tags: '["a"]' })).toEqual({ args: { title: "Printer", priority: "high", urgent: true, count: 3, ratio: 0.5, tags: ["a"] }, errors: {} });
  });
  it("names the fields that do not convert", () => {
    expect(formArguments(fields, { title: "x", count: "1.5", tags: "[", priority: "" }).errors).toEqual({ count: "a whole number", tags: "not valid JSON", priority: "required" });
  });
});
