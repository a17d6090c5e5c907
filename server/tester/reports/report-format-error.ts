// A report the importer cannot read: malformed, too big, or neither JUnit
// XML nor our JSON report. The message names the problem (and the place,
// when the parser knows it) so the user can fix the file; services answer
// it as a 400, never a 500.
export class ReportFormatError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line ? `${message} (line ${line}${column ? `, column ${column}` : ""})` : message);
    this.name = "ReportFormatError";
  }
}
