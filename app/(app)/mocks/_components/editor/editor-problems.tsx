"use client";
// Parts of the form that hold text the draft cannot take yet (a payload whose
// JSON does not parse) report it here, so Save refuses instead of storing the
// last parsable value while the user sees something else.
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";

interface EditorProblems {
  report: (key: string, problem: string | null) => void;
}

const Context = createContext<EditorProblems>({ report: () => {} });

/** The reported problems by key, and the provider value that collects them. */
export function useEditorProblemsState() {
  const [problems, setProblems] = useState<Record<string, string>>({});
  const report = useCallback((key: string, problem: string | null) => {
    setProblems((p) => {
      if ((p[key] ?? null) === problem) return p;
      const next = { ...p };
      if (problem === null) delete next[key];
      else next[key] = problem;
      return next;
    });
  }, []);
  const value = useMemo(() => ({ report }), [report]);
  return { problems, value };
}

export const EditorProblemsProvider = Context.Provider;

/** Reports `problem` under `key` while the caller is mounted with it. */
export function useReportProblem(key: string, problem: string | null) {
  const { report } = useContext(Context);
  useEffect(() => {
    report(key, problem);
    return () => report(key, null);
  }, [key, problem, report]);
}
