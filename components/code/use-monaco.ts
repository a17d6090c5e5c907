"use client";
import { useEffect, useState } from "react";
import { loadMonaco, type Monaco } from "./monaco-loader";

/** Monaco once it has loaded (null before); editors render a placeholder until then. */
export function useMonaco(): Monaco | null {
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  useEffect(() => {
    let live = true;
    void loadMonaco().then((m) => live && setMonaco(m));
    return () => {
      live = false;
    };
  }, []);
  return monaco;
}
