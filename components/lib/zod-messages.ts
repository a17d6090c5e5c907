// Friendlier wording for zod's default messages in browser forms. Messages a
// contract spells out itself (e.g. the namespace-name rule) still win. Only the
// browser's zod is configured: server-side errors keep zod's wording.
import { z } from "zod";

let configured = false;

export function configureFormMessages() {
  if (configured || typeof window === "undefined") return;
  configured = true;
  z.config({
    customError: (issue) => {
      switch (issue.code) {
        case "too_small":
          if (issue.origin === "string") return Number(issue.minimum) <= 1 ? "Required" : `At least ${issue.minimum} characters`;
          if (issue.origin === "array") return Number(issue.minimum) <= 1 ? "Choose at least one" : `Choose at least ${issue.minimum}`;
          return undefined;
        case "too_big":
          if (issue.origin === "string") return `At most ${issue.maximum} characters`;
          return undefined;
        case "invalid_format":
          if (issue.format === "email") return "Enter a valid e-mail address";
          if (issue.format === "url") return "Enter a full URL, e.g. https://example.com";
          return undefined;
        case "invalid_type":
          if (issue.input === undefined || issue.input === null || issue.input === "") return "Required";
          return undefined;
        default:
          return undefined;
      }
    },
  });
}
