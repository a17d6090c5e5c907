// The folders above a request, outermost first: whose auth it inherits and
// whose scripts run around it. A parent cycle (not possible through the API,
// but stored data is not trusted) ends the walk.
import type { RequestAuth, Scripts } from "@/server/contracts/tester-request";

export interface ChainFolder {
  id: string;
  parentId: string | null;
  name: string;
  auth?: RequestAuth;
  scripts?: Scripts;
}

export function folderChain(folders: readonly ChainFolder[], folderId: string | null): { id: string; name: string; auth?: RequestAuth; scripts?: Scripts }[] {
  const byId = new Map(folders.map((f) => [f.id, f]));
  const chain: { id: string; name: string; auth?: RequestAuth; scripts?: Scripts }[] = [];
  const seen = new Set<string>();
  for (let f = folderId ? byId.get(folderId) : undefined; f && !seen.has(f.id); f = f.parentId ? byId.get(f.parentId) : undefined) {
    seen.add(f.id);
    chain.unshift({ id: f.id, name: f.name, auth: f.auth, scripts: f.scripts });
  }
  return chain;
}
