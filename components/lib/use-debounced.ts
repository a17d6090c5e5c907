"use client";
import { useEffect, useState } from "react";

/** `value`, once it has stopped changing for `ms` (search boxes query after typing pauses). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}
