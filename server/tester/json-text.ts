// JSON.parse with a syntax error that says where: V8 gives an offset for
// some mistakes ("at position 12") and none for others, and a person fixing
// a file wants a line and column, not an offset.

export interface JsonSyntaxProblem {
  message: string;
  line?: number;
  column?: number;
}

/** Line and column (1-based) of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The parsed value, or the problem with its place when V8 names one. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; problem: JsonSyntaxProblem } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const raw = (err as Error).message;
    const at = /at position (\d+)/.exec(raw);
    // V8 quotes the whole input in some messages ("…" is not valid JSON): keep only its first part.
    const message = raw.replace(/, (\.\.\.)?".*" is not valid JSON$/s, "").replace(/( in JSON)? at position \d+.*$/s, "").replace(/ in JSON$/, "").replace(/ \(line \d+ column \d+\)$/, "");
    return { ok: false, problem: at ? { message, ...lineColumnAt(text, Number(at[1])) } : { message } };
  }
}
