/** E2E data for the catalogue's credits specs (tests/e2e/catalog/), made before the server starts. */
export async function prepareCreditsData(): Promise<string> {
  return "no credits data";
}
