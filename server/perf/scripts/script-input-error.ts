// Input a script cannot be generated from: the services answer it as a 400
// naming where (a JSON pointer into the request body) and, for collections,
// each request that needs a dedicated load script.

export interface ScriptProblem {
  message: string;
  /** JSON pointer into the input, when the problem is at one place. */
  pointer?: string;
  /** The API tester request it is about. */
  requestId?: string;
  /** "Collection / Folder / Request", for people. */
  request?: string;
}

export class ScriptInputError extends Error {
  constructor(
    message: string,
    readonly problems: ScriptProblem[] = [{ message }],
  ) {
    super(message);
    this.name = "ScriptInputError";
  }
}
