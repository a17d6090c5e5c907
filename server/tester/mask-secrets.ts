// Secret variable values never leave a run in clear: results, history and
// reports show SECRET_MASK wherever a secret's value appears (in a URL, a
// header, a body, a log line). Values shorter than 4 characters are not
// masked: they would blank out ordinary text.
import { SECRET_MASK } from "@/server/contracts/tester-request";

export type Masker = (text: string) => string;

export function secretMasker(secretValues: Iterable<unknown>): Masker {
  const values = [...new Set([...secretValues].filter((v): v is string => typeof v === "string" && v.length >= 4))].sort((a, b) => b.length - a.length);
  if (!values.length) return (t) => t;
  return (text) => {
    let out = text;
    for (const v of values) {
      if (out.includes(v)) out = out.split(v).join(SECRET_MASK);
      const encoded = encodeURIComponent(v);
      if (encoded !== v && out.includes(encoded)) out = out.split(encoded).join(SECRET_MASK);
    }
    return out;
  };
}
