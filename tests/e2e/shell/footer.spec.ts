import fs from "node:fs";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";

/** The area footer shows the app version from package.json (0.1.0 when this was written). */
const version = (JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string }).version;

test("the version is in the footer of both areas and not on /login", async ({ page, app }) => {
  expect(version).toBe("0.1.0");
  await page.goto("/login");
  await expect(page.getByText(`v${version}`)).toHaveCount(0);
  await expect(page.getByTestId("app-version")).toHaveCount(0);

  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  for (const path of ["/admin/dashboard", "/member/2/dashboard"]) {
    await page.goto(path);
    const footer = page.getByRole("contentinfo");
    await expect(footer, path).toHaveText(`Backline v${version}`);
    await expect(footer.getByTestId("app-version")).toHaveText("v0.1.0");
  }
});
