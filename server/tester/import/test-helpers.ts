// Helpers of the importers' tests: fixtures by name and the requests of a converted tree.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { NativeItem, NativeRequestItem } from "@/server/contracts/tester-native-format";

export const importFixture = (name: string) => readFileSync(path.join(__dirname, "__fixtures__", name), "utf8");
export const generatorFixture = (name: string) => readFileSync(path.join(__dirname, "../../generators/__fixtures__", name), "utf8");

/** Every request of a tree, depth first, with the names of its folders. */
export function requestsOf(items: NativeItem[], trail: string[] = []): (NativeRequestItem & { folders: string[] })[] {
  return items.flatMap((i) => (i.type === "folder" ? requestsOf(i.items, [...trail, i.name]) : [{ ...i, folders: trail }]));
}
