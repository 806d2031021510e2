import type { Page } from "@playwright/test";
import { logInMember } from "../support/account-admin-helpers";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { test, uniqueEmail, type App } from "../support/test";
import { expect, fillProposal, flash, newSong, partyEmail, partyShare, proposalForm, sharesTotal, submitProposal, uniqueTitle, versionCard } from "./helpers";

/**
 * The split proposal form refuses bad input beside the field it is about, and keeps what was typed:
 * shares that do not total 100 %, the same party twice, an address that is not one, and a date on or
 * before the latest confirmed version's. (A date in a sale period an import already posted needs a
 * statement import, which these specs do not make: the service tests cover it.)
 */
test.describe.configure({ timeout: 90_000 });

const OWNER = RELEASE_MEMBERS.songwriter;

/** The parties' own errors (the fieldset's list, beside the rows). */
const partiesError = (page: Page, message: string) =>
  proposalForm(page).getByRole("group", { name: "Parties" }).getByRole("listitem").filter({ hasText: message });

async function badInput(page: Page, app: App) {
  const ownerId = await logInMember(app, OWNER, RELEASE_PASSWORD);
  await newSong(page, app, ownerId, uniqueTitle(app.js ? "Bad Splits" : "Plain Bad Splits"));
  const outsider = uniqueEmail("split-bad");

  // Shares over 100 %, the owner twice, and an address that is not one: each error beside its field.
  await fillProposal(page, "2026-09-01", [
    [OWNER, "60"],
    [OWNER.toUpperCase(), "30"],
    ["not-an-email", "20"],
  ]);
  await submitProposal(page);
  await expect(partiesError(page, "The shares total 110.00%: 10.00% over 100%.")).toBeVisible();
  await expect(sharesTotal(page)).toHaveText("The shares total 110.00%: 10.00% over 100%.");
  await expect(partyEmail(page, 2)).toHaveAccessibleDescription("This address is already party 1.");
  await expect(partyEmail(page, 2)).toHaveAttribute("aria-invalid", "true");
  await expect(partyEmail(page, 3)).toHaveAccessibleDescription("Enter a valid email address, like name@example.com.");
  await expect(partyEmail(page, 1)).not.toHaveAttribute("aria-invalid", "true");
  // Nothing is lost.
  await expect(proposalForm(page).getByLabel("Effective from")).toHaveValue("2026-09-01");
  await expect(partyEmail(page, 3)).toHaveValue("not-an-email");
  await expect(partyShare(page, 3)).toHaveValue("20");
  await expect(versionCard(page, 1)).toHaveCount(0);

  // Corrected (the third row emptied is left out), it goes through; the owner confirms it.
  await partyEmail(page, 2).fill(outsider);
  await partyShare(page, 2).fill("40");
  await partyEmail(page, 3).fill("");
  await partyShare(page, 3).fill("");
  await submitProposal(page);
  await expect(flash(page)).toContainText("Version 1 is proposed");
  await versionCard(page, 1).getByRole("button", { name: "Confirm version 1" }).click();
  await expect(flash(page)).toContainText("Version 1 is confirmed: in force from 2026-09-01.");
  await app.hydrated();

  // A new version may not start on or before the confirmed one: the reason is beside the date, the rest is kept.
  await expect(partyEmail(page, 1)).toHaveValue(OWNER);
  await expect(partyEmail(page, 2)).toHaveValue(outsider);
  await proposalForm(page).getByLabel("Effective from").fill("2026-08-15");
  await partyShare(page, 1).fill("70");
  await partyShare(page, 2).fill("30");
  await submitProposal(page);
  const date = proposalForm(page).getByLabel("Effective from");
  await expect(date).toHaveAccessibleDescription(/^Version 1 starts on 2026-09-01: a new version must start after it, on 2026-09-02 or later\./);
  await expect(date).toHaveAttribute("aria-invalid", "true");
  await expect(date).toHaveValue("2026-08-15");
  await expect(partyShare(page, 1)).toHaveValue("70");
  await expect(partyEmail(page, 2)).toHaveValue(outsider);
  await expect(versionCard(page, 2)).toHaveCount(0);
}

test("bad input is refused beside its field and the values are kept", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(400);
  await badInput(page, app);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("bad input is refused by the server beside its field and the values are kept", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    await badInput(page, app);
  });
});
