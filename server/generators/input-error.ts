// A document a generator cannot read: answered 400 with where the parser
// stopped, never a 500.

export interface DocumentLocation {
  line?: number;
  column?: number;
  /** The file, for a document of several files (.proto imports). */
  file?: string;
  /** A JSON pointer into the document, when the problem is a value rather than the syntax. */
  pointer?: string;
}

export class GeneratorInputError extends Error {
  constructor(
    message: string,
    readonly location: DocumentLocation = {},
  ) {
    super(message);
    this.name = "GeneratorInputError";
  }
}
