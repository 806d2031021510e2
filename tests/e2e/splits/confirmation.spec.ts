import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { createVerifiedUser, test } from "../support/test";
import { item, openBell, openButton } from "../notifications/helpers";
import { answerBox, expect, fillProposal, flash, newSong, splits, submitProposal, uniqueTitle, versionCard } from "./helpers";

/**
 * A split every party has accepted is still only a proposal until the artist page's owner confirms it. The
 * proposal says so (to the owner: confirm it; to the others: it waits for the owner), and the owner's
 * notification of the last answer says to confirm it.
 */
test.describe.configure({ timeout: 120_000 });

const OWNER = RELEASE_MEMBERS.songwriter;

test("when the last party accepts, the owner is told to confirm and the proposal says it is not in force yet", async ({
  page,
  app,
  browser,
  browserErrors,
  request,
}) => {
  const title = uniqueTitle("Waiting Lines");
  const member = await createVerifiedUser(request, "split-confirm");

  const ownerId = await logInMember(app, OWNER, RELEASE_PASSWORD);
  const songId = await newSong(page, app, ownerId, title);
  await fillProposal(page, "2026-10-01", [
    [OWNER, "70"],
    [member.email, "30"],
  ]);
  await submitProposal(page);
  await expect(flash(page)).toContainText("Version 1 is proposed");
  // A party has not answered: no notice yet.
  await expect(versionCard(page, 1).getByRole("status")).toHaveCount(0);

  // The member accepts: the proposal now tells them it waits for the owner.
  const party = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, member.email, member.password, party.page);
  await app.goto(`/member/${memberId}/song-profile/${songId}`, party.page);
  await answerBox(party.page, 1).getByRole("button", { name: "Accept 30.00%" }).click();
  await expect(flash(party.page)).toContainText("You accepted your 30% share.");
  await expect(versionCard(party.page, 1).getByRole("status")).toHaveText(
    "Every party has accepted. Version 1 is still a proposal: it takes effect from 2026-10-01 once the artist page's owner confirms it.",
  );
  await expect(versionCard(party.page, 1).getByRole("button", { name: "Confirm version 1" })).toHaveCount(0);

  // The owner: the notification says to confirm, and opens the sheet, where the notice says the same.
  await app.goto(`/member/${ownerId}/dashboard`);
  const message = `Test User accepted 30.00% of the split of “${title}”. Every party has accepted: confirm version 1 to put it in force from 2026-10-01.`;
  await openBell(page);
  await expect(item(page, message)).toBeVisible();
  await openButton(page, message).click();
  await expect(page).toHaveURL(new RegExp(`/member/${ownerId}/song-profile/${songId}(#splits)?$`));
  await app.hydrated();
  const notice = versionCard(page, 1).getByRole("status");
  await expect(notice).toHaveText("Every party has accepted. Version 1 is not in force until you confirm it: confirm it to put it in force from 2026-10-01.");
  await expect(versionCard(page, 1)).toContainText("Proposed");

  // Confirmed: the notice is gone.
  await versionCard(page, 1).getByRole("button", { name: "Confirm version 1" }).click();
  await expect(flash(page)).toContainText("Version 1 is confirmed: in force from 2026-10-01.");
  await expect(notice).toHaveCount(0);
  await expect(splits(page)).not.toContainText("Every party has accepted");

  await party.context.close();
});
