import { expect, test } from "../support/test";

for (const path of ["/no-such-page", "/a/b/c", "/password-reset", "/legal-terms-old"]) {
  test(`${path} answers the Not Found page with status 404`, async ({ page, browserErrors }) => {
    browserErrors.allowStatus(404);
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("Not Found | Backline");
    await expect(page.getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
    await expect(page.getByText("The page you are looking for does not exist or has moved.")).toBeVisible();
  });
}

test("the Not Found page links back to the start, which leads to login", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.goto("/definitely-missing");
  await page.getByRole("link", { name: "Go to the start page" }).click();
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("heading", { name: "Log in" })).toBeVisible();
});

test("an unknown path answers 404 to non-browser clients too", async ({ request }) => {
  const response = await request.get("/no-such-page.txt");
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain("Not Found");
});
