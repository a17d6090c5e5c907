export default async function globalTeardown() {
  await globalThis.__polymockE2eServer?.stop();
}
