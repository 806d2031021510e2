/** E2E data for the catalogue's songs specs (tests/e2e/catalog/), made before the server starts. */
export async function prepareSongsData(): Promise<string> {
  return "no songs data";
}
