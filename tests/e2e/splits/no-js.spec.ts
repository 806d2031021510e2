import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { createVerifiedUser, test, uniqueEmail } from "../support/test";
import {
  answerBox,
  createAccountFromInvite,
  expect,
  expectPdf,
  fillProposal,
  flash,
  inviteLink,
  newSong,
  partyEmail,
  partyRow,
  partyShare,
  proposalForm,
  sharesTotal,
  splits,
  submitProposal,
  uniqueTitle,
  versionCard,
} from "./helpers";

/**
 * Share splits without JavaScript: every form on the split sheet and the invitation page is a plain POST.
 * The owner proposes (the server says how far off the shares are), the member answers from the dashboard
 * task, the invitee creates the account from the mailed link and declines, the owner confirms, and the
 * sheet and its PDF are for the parties only.
 */
test.describe.configure({ timeout: 180_000 });
test.use({ javaScriptEnabled: false });

const OWNER = RELEASE_MEMBERS.songwriter;
const OWNER_NAME = "Rae Release songwriter";

test("a proposal to a member and a non-member, answered, declined and confirmed with plain form posts", async ({
  page,
  app,
  browser,
  browserErrors,
  request,
}) => {
  const title = uniqueTitle("Plain Shares");
  const outsider = uniqueEmail("split-nojs-outsider");
  const member = await createVerifiedUser(request, "split-nojs-member");

  const ownerId = await logInMember(app, OWNER, RELEASE_PASSWORD);
  const songId = await newSong(page, app, ownerId, title);
  await expect(sharesTotal(page)).toHaveText("The shares total 100.00%.");

  // Shares short of 100 %: the server says by how much, beside the parties, and keeps every value.
  browserErrors.allowStatus(400);
  await fillProposal(page, "2026-09-01", [
    [OWNER, "50"],
    [member.email, "30"],
    [outsider, "10"],
  ]);
  await submitProposal(page);
  await expect(
    proposalForm(page).getByRole("group", { name: "Parties" }).getByRole("listitem").filter({ hasText: "The shares total 90.00%: 10.00% short of 100%." }),
  ).toBeVisible();
  await expect(sharesTotal(page)).toHaveText("The shares total 90.00%: 10.00% short of 100%.");
  await expect(partyEmail(page, 2)).toHaveValue(member.email);
  await expect(partyEmail(page, 3)).toHaveValue(outsider);
  await expect(partyShare(page, 3)).toHaveValue("10");
  await partyShare(page, 3).fill("20");
  await submitProposal(page);
  await expect(flash(page)).toContainText("Version 1 is proposed: every party is invited to accept or decline.");
  await expect(partyRow(page, 1, "Test User")).toContainText("Pending");
  const link = await inviteLink(outsider, OWNER_NAME, "20.00%", title);

  // The member: the dashboard's task leads to the sheet, where they accept.
  const party = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, member.email, member.password, party.page);
  await app.goto(`/member/${memberId}/dashboard`, party.page);
  await party.page
    .getByRole("region", { name: "Split proposals to answer" })
    .getByRole("link", { name: `30.00% of “${title}” by Song Sparrows` })
    .click();
  await expect(party.page).toHaveURL(new RegExp(`/member/${memberId}/song-profile/${songId}#splits$`));
  await expect(partyRow(party.page, 1, OWNER_NAME)).toContainText("50.00%");
  await answerBox(party.page, 1).getByRole("button", { name: "Accept 30.00%" }).click();
  await expect(flash(party.page)).toContainText("You accepted your 30% share.");
  await expect(partyRow(party.page, 1, "Test User (you)")).toContainText("Accepted");

  // The invitee: creates the account from the link, lands on the sheet, and declines.
  const visitor = await otherBrowser(browser, browserErrors);
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole("table", { name: "Version 1 of the split sheet" })).toContainText(OWNER_NAME);
  await createAccountFromInvite(visitor.page, "Nora", "Noscript", "a-good-password");
  await expect(visitor.page).toHaveURL(new RegExp(`/member/\\d+/song-profile/${songId}#splits$`));
  const outsiderId = Number(/\/member\/(\d+)\//.exec(visitor.page.url())![1]);
  await expect(flash(visitor.page)).toContainText("Your account is ready. Here is the split sheet: accept or decline your share.");
  await answerBox(visitor.page, 1).getByRole("button", { name: "Decline" }).click();
  await expect(flash(visitor.page)).toContainText("You declined your share: it goes back to the artist page's owner.");
  await expect(partyRow(visitor.page, 1, "Nora Noscript (you)")).toContainText("Declined");

  // The owner confirms; the declined share is in the history for everyone.
  await app.goto(`/member/${ownerId}/song-profile/${songId}`);
  await versionCard(page, 1).getByRole("button", { name: "Confirm version 1" }).click();
  await expect(flash(page)).toContainText("Version 1 is confirmed: in force from 2026-09-01.");
  await expect(versionCard(page, 1)).toContainText("In force");
  await splits(page)
    .getByText(/^History \(\d+\)$/)
    .click();
  await expect(splits(page)).toContainText("Nora Noscript declined 20.00% of version 1: that share goes back to the artist page's owner.");

  // Parties see it and download the PDF; a stranger gets 404 for both.
  const href = (await versionCard(page, 1).getByRole("link", { name: "Download the signed sheet (PDF)" }).getAttribute("href"))!;
  const versionId = href.split("/").pop();
  await expectPdf(page.request, href);
  for (const [who, id] of [
    [party, memberId],
    [visitor, outsiderId],
  ] as const) {
    await app.goto(`/member/${id}/song-profile/${songId}`, who.page);
    await expect(versionCard(who.page, 1)).toContainText("In force");
    await expect(partyRow(who.page, 1, "Nora Noscript")).toContainText("Declined");
    await expectPdf(who.page.request, `/member/${id}/song-profile/${songId}/split-sheet/${versionId}`);
  }
  browserErrors.allowStatus(404);
  const stranger = await otherBrowser(browser, browserErrors);
  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD, stranger.page);
  expect((await stranger.page.goto(`/member/${strangerId}/song-profile/${songId}`))!.status()).toBe(404);
  expect((await stranger.page.request.get(`/member/${strangerId}/song-profile/${songId}/split-sheet/${versionId}`, { maxRedirects: 0 })).status()).toBe(404);

  // Income & Shares: the member's 30 %.
  await app.goto(`/member/${memberId}/member-income`, party.page);
  await expect(party.page.getByRole("region", { name: "Shares" }).getByRole("row").filter({ hasText: title })).toContainText("30.00%");

  await Promise.all([party.context.close(), visitor.context.close(), stranger.context.close()]);
});

test("an invitee declines from the link alone with a plain form post", async ({ page, app, browser, browserErrors }) => {
  const title = uniqueTitle("Plain Decline");
  const outsider = uniqueEmail("split-nojs-decliner");
  const ownerId = await logInMember(app, OWNER, RELEASE_PASSWORD);
  await newSong(page, app, ownerId, title);
  await fillProposal(page, "2026-10-01", [
    [OWNER, "90"],
    [outsider, "10"],
  ]);
  await submitProposal(page);
  await expect(flash(page)).toContainText("Version 1 is proposed");
  const link = await inviteLink(outsider, OWNER_NAME, "10.00%", title);

  const visitor = await otherBrowser(browser, browserErrors);
  await visitor.page.goto(link);
  await visitor.page.getByRole("button", { name: "Decline the share" }).click();
  await expect(visitor.page).toHaveURL("/login");
  await expect(flash(visitor.page)).toContainText("You declined the share. The song's owner is told, and the share goes back to them.");
  await visitor.context.close();

  await page.reload();
  await expect(partyRow(page, 1, outsider)).toContainText("Declined");
});
