// A version's `change` as a sentence. The server records codes such as
// "restored_version:2" or "copied_from:team/orders"; the history shows words.
const WORDS: Record<string, string> = {
  created: "Created",
  overwritten: "Saved",
  patched: "Edited",
  deleted: "Moved to the recycle bin",
  restored: "Restored from the recycle bin",
  moved: "Moved to another folder",
  tagged: "Tags changed",
};

export function versionChangeLabel(change: string): string {
  const [code, arg] = [change.split(":", 1)[0], change.slice(change.indexOf(":") + 1)];
  if (code === "restored_version" && arg) return `Restored version ${arg}`;
  if (code === "copied_from" && arg) return `Copied from ${arg}`;
  if (WORDS[change]) return WORDS[change];
  const words = change.replace(/[_:]+/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "Changed";
}
