/** E2E data for the catalogue's releases specs (tests/e2e/catalog/), made before the server starts. */
export async function prepareReleasesData(): Promise<string> {
  return "no releases data";
}
