import { logInMember, otherBrowser } from "../support/account-admin-helpers";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { RELEASE_MEMBERS, RELEASE_PASSWORD } from "../support/release-accounts";
import { createVerifiedUser, test, uniqueEmail } from "../support/test";
import { badge, gotoLive, item, memberChannel, openBell, openButton } from "../notifications/helpers";
import {
  answerBox,
  createAccountFromInvite,
  expect,
  expectPdf,
  fillProposal,
  flash,
  inviteLink,
  newSong,
  partyRow,
  partyShare,
  partyEmail,
  proposalForm,
  sharesTotal,
  splits,
  submitProposal,
  uniqueTitle,
  versionCard,
} from "./helpers";

/**
 * Share splits, with JavaScript: the song's owner proposes a version to a member and to an
 * address without an account (the form totals the shares live); the member answers from the live
 * notification and the dashboard task; the invitee follows the mailed, signed link (over the suite's SMTP
 * listener), creates an account and accepts; the owner confirms. Every party sees the whole sheet and its
 * signed PDF, a stranger gets 404; Income & Shares lists the shares; the release profile shows its tracks'
 * splits.
 */
test.describe.configure({ timeout: 180_000 });

const OWNER = RELEASE_MEMBERS.songwriter;
const OWNER_NAME = "Rae Release songwriter";
const ARTIST = "Song Sparrows";

test("a member and a non-member are proposed shares, both accept, the owner confirms; every party sees the sheet and its PDF, a stranger gets 404", async ({
  page,
  app,
  browser,
  browserErrors,
  request,
}) => {
  const title = uniqueTitle("Shared Lines");
  const outsider = uniqueEmail("split-outsider");
  const member = await createVerifiedUser(request, "split-member");

  // The member party waits on their dashboard, listening for live notifications; nothing to answer yet.
  const party = await otherBrowser(browser, browserErrors);
  const memberId = await logInMember(app, member.email, member.password, party.page);
  await gotoLive(party.page, `/member/${memberId}/dashboard`, memberChannel(memberId), (path, p) => app.goto(path, p));
  await expect(party.page.getByRole("region", { name: "Split proposals to answer" })).toHaveCount(0);

  // The owner: a new song has no split; the form starts with the owner at 100 %.
  const ownerId = await logInMember(app, OWNER, RELEASE_PASSWORD);
  const songId = await newSong(page, app, ownerId, title);
  await expect(splits(page)).toContainText("No split yet: the artist page's owner receives 100% of this song's master royalties.");
  await expect(partyEmail(page, 1)).toHaveValue(OWNER);
  await expect(partyShare(page, 1)).toHaveValue("100");
  await expect(sharesTotal(page)).toHaveText("The shares total 100.00%.");

  // The total follows every keystroke, and says how far off 100 % it is.
  await proposalForm(page).getByLabel("Effective from").fill("2026-09-01");
  await partyShare(page, 1).fill("50");
  await expect(sharesTotal(page)).toHaveText("The shares total 50.00%: 50.00% short of 100%.");
  await partyEmail(page, 2).fill(member.email);
  await partyShare(page, 2).fill("30");
  await expect(sharesTotal(page)).toHaveText("The shares total 80.00%: 20.00% short of 100%.");
  await partyEmail(page, 3).fill(outsider);
  await partyShare(page, 3).fill("30");
  await expect(sharesTotal(page)).toHaveText("The shares total 110.00%: 10.00% over 100%.");
  await partyShare(page, 3).fill("20");
  await expect(sharesTotal(page)).toHaveText("The shares total 100.00%.");
  await submitProposal(page);
  await expect(flash(page)).toContainText("Version 1 is proposed: every party is invited to accept or decline.");

  // The sheet: the proposer accepted on the spot, the others are pending; no new proposal until this one is settled.
  await expect(versionCard(page, 1)).toContainText("Version 1 · from 2026-09-01");
  await expect(versionCard(page, 1)).toContainText("Proposed");
  await expect(partyRow(page, 1, OWNER_NAME)).toContainText("50.00%");
  await expect(partyRow(page, 1, OWNER_NAME)).toContainText("Accepted");
  await expect(partyRow(page, 1, "Test User")).toContainText("30.00%");
  await expect(partyRow(page, 1, "Test User")).toContainText("Pending");
  await expect(partyRow(page, 1, outsider)).toContainText("20.00%");
  await expect(partyRow(page, 1, outsider)).toContainText("Pending");
  await expect(versionCard(page, 1).getByRole("row", { name: /^Total/ })).toContainText("100.00%");
  await expect(splits(page)).toContainText("Version 1 is still a proposal: confirm or withdraw it before proposing another.");
  await expect(proposalForm(page)).toHaveCount(0);

  // The invitee without an account got a signed link; the owner can send a fresh one.
  await inviteLink(outsider, OWNER_NAME, "20.00%", title);
  await partyRow(page, 1, outsider).getByRole("button", { name: "Send a new link" }).click();
  await expect(flash(page)).toContainText("A new invitation link is sent.");
  const link = await inviteLink(outsider, OWNER_NAME, "20.00%", title, 1);

  // The member: the notification arrives live; the dashboard lists the task; the notification opens the sheet.
  const message = `${OWNER_NAME} proposed a split of “${title}”: your share is 30.00%. Accept or decline it.`;
  await expect(badge(party.page)).toHaveText("1");
  await openBell(party.page);
  await expect(item(party.page, message)).toBeVisible();
  await app.goto(`/member/${memberId}/dashboard`, party.page);
  const tasks = party.page.getByRole("region", { name: "Split proposals to answer" });
  await expect(tasks).toContainText(`30.00% of “${title}” by ${ARTIST} (version 1, from 2026-09-01)`);
  await expect(tasks.getByRole("link", { name: `30.00% of “${title}” by ${ARTIST}` })).toHaveAttribute(
    "href",
    `/member/${memberId}/song-profile/${songId}#splits`,
  );
  await openBell(party.page);
  await openButton(party.page, message).click();
  await expect(party.page).toHaveURL(new RegExp(`/member/${memberId}/song-profile/${songId}(#splits)?$`));
  await expect(party.page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await app.hydrated(party.page);

  // A party sees the whole sheet (not the song's other sections) and answers.
  await expect(party.page.getByRole("region", { name: "Writers" })).toHaveCount(0);
  await expect(partyRow(party.page, 1, OWNER_NAME)).toContainText("50.00%");
  await expect(partyRow(party.page, 1, outsider)).toContainText("Pending");
  await expect(partyRow(party.page, 1, "Test User (you)")).toContainText("30.00%");
  await expect(answerBox(party.page, 1)).toContainText("You are offered 30.00% in version 1, from 2026-09-01.");
  await expect(proposalForm(party.page)).toHaveCount(0);
  await answerBox(party.page, 1).getByRole("button", { name: "Accept 30.00%" }).click();
  await expect(flash(party.page)).toContainText("You accepted your 30% share.");
  await expect(partyRow(party.page, 1, "Test User (you)")).toContainText("Accepted");
  await expect(answerBox(party.page, 1)).toHaveCount(0);
  await app.goto(`/member/${memberId}/dashboard`, party.page);
  await expect(party.page.getByRole("region", { name: "Split proposals to answer" })).toHaveCount(0);

  // The invitee: a tampered link is refused; the real one shows the sheet and offers an account.
  const visitor = await otherBrowser(browser, browserErrors);
  browserErrors.allowStatus(403);
  await visitor.page.goto(link.replace(/signature=[0-9a-f]/, "signature=x"));
  await expect(visitor.page.getByRole("alert")).toHaveText("Invalid signature.");
  await app.goto(link, visitor.page);
  await expect(visitor.page.locator("main")).toContainText(
    `${OWNER_NAME} proposes ${outsider} a 20.00% share of the master royalties of “${title}” by ${ARTIST}, from 2026-09-01.`,
  );
  const summary = visitor.page.getByRole("table", { name: "Version 1 of the split sheet" });
  await expect(summary.getByRole("row").filter({ hasText: "Test User" })).toContainText("Accepted");
  await expect(summary.getByRole("row").filter({ hasText: outsider })).toContainText("Pending");
  await createAccountFromInvite(visitor.page, "Olive", "Outsider", "a-good-password");
  await expect(visitor.page).toHaveURL(new RegExp(`/member/\\d+/song-profile/${songId}#splits$`));
  const outsiderId = Number(/\/member\/(\d+)\//.exec(visitor.page.url())![1]);
  await expect(flash(visitor.page)).toContainText("Your account is ready. Here is the split sheet: accept or decline your share.");
  await app.hydrated(visitor.page);
  await expect(partyRow(visitor.page, 1, "Olive Outsider (you)")).toContainText("Pending");
  await answerBox(visitor.page, 1).getByRole("button", { name: "Accept 20.00%" }).click();
  await expect(flash(visitor.page)).toContainText("You accepted your 20% share.");
  await expect(partyRow(visitor.page, 1, "Olive Outsider (you)")).toContainText("Accepted");

  // The owner confirms: version 1 is in force; the history tells the story.
  await app.goto(`/member/${ownerId}/song-profile/${songId}`);
  await expect(partyRow(page, 1, "Olive Outsider")).toContainText("Accepted");
  await versionCard(page, 1).getByRole("button", { name: "Confirm version 1" }).click();
  await expect(flash(page)).toContainText("Version 1 is confirmed: in force from 2026-09-01.");
  await expect(versionCard(page, 1)).toContainText("In force");
  await splits(page)
    .getByText(/^History \(\d+\)$/)
    .click();
  await expect(splits(page)).toContainText(
    `${OWNER_NAME} proposed version 1, effective 2026-09-01: ${OWNER_NAME} 50.00%, Test User 30.00%, ${outsider} 20.00%.`,
  );
  await expect(splits(page)).toContainText("Test User accepted 30.00% of version 1.");
  await expect(splits(page)).toContainText("Olive Outsider accepted 20.00% of version 1.");
  await expect(splits(page)).toContainText(`${OWNER_NAME} confirmed version 1: in force from 2026-09-01.`);
  // The form is back, starting from the version in force.
  await expect(partyEmail(page, 2)).toHaveValue(member.email);
  await expect(partyShare(page, 2)).toHaveValue("30");

  // Every party sees the confirmed sheet and downloads the signed PDF.
  const pdfPath = (id: number) => `/member/${id}/song-profile/${songId}/split-sheet`;
  const ownerPdf = await versionCard(page, 1).getByRole("link", { name: "Download the signed sheet (PDF)" }).getAttribute("href");
  expect(ownerPdf).toMatch(new RegExp(`^${pdfPath(ownerId)}/\\d+$`));
  const versionId = Number(ownerPdf!.split("/").pop());
  await expectPdf(page.request, ownerPdf!);
  for (const [who, id] of [
    [party, memberId],
    [visitor, outsiderId],
  ] as const) {
    await app.goto(`/member/${id}/song-profile/${songId}`, who.page);
    await expect(versionCard(who.page, 1)).toContainText("In force");
    await expect(versionCard(who.page, 1).getByRole("link", { name: "Download the signed sheet (PDF)" })).toHaveAttribute(
      "href",
      `${pdfPath(id)}/${versionId}`,
    );
    await expectPdf(who.page.request, `${pdfPath(id)}/${versionId}`);
  }
  // A party answers, but does not manage the split.
  const refused = await party.page.request.post(`/member/${memberId}/song-profile/${songId}`, {
    form: { intent: "split-withdraw", versionId: String(versionId) },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(404);

  // A stranger: 404 for the sheet and its PDF.
  browserErrors.allowStatus(404);
  const stranger = await otherBrowser(browser, browserErrors);
  const strangerId = await logInMember(app, RELEASE_MEMBERS.stranger, RELEASE_PASSWORD, stranger.page);
  expect((await stranger.page.goto(`/member/${strangerId}/song-profile/${songId}`))!.status()).toBe(404);
  expect((await stranger.page.request.get(`${pdfPath(strangerId)}/${versionId}`, { maxRedirects: 0 })).status()).toBe(404);

  // Income & Shares lists the member's share, leading to the sheet.
  await app.goto(`/member/${memberId}/member-income`, party.page);
  const shares = party.page.getByRole("region", { name: "Shares" });
  const row = shares.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("30.00%");
  await expect(row).toContainText("version 1, from 2026-09-01");
  await expect(row).toContainText("Accepted");
  await expect(row.getByRole("link", { name: title })).toHaveAttribute("href", `/member/${memberId}/song-profile/${songId}#splits`);
  // And the owner's.
  await app.goto(`/member/${ownerId}/member-income`);
  await expect(page.getByRole("region", { name: "Shares" }).getByRole("row").filter({ hasText: title })).toContainText("50.00%");

  await Promise.all([party.context.close(), visitor.context.close(), stranger.context.close()]);
});

test("an invitee without an account declines from the link alone; the share goes back to the owner", async ({ page, app, browser, browserErrors }) => {
  const title = uniqueTitle("Declined Lines");
  const outsider = uniqueEmail("split-decliner");
  const ownerId = await logInMember(app, OWNER, RELEASE_PASSWORD);
  await newSong(page, app, ownerId, title);
  await fillProposal(page, "2026-10-01", [
    [OWNER, "75"],
    [outsider, "25"],
  ]);
  await submitProposal(page);
  await expect(flash(page)).toContainText("Version 1 is proposed");
  const link = await inviteLink(outsider, OWNER_NAME, "25.00%", title);

  const visitor = await otherBrowser(browser, browserErrors);
  await app.goto(link, visitor.page);
  await visitor.page.getByRole("button", { name: "Decline the share" }).click();
  await expect(visitor.page).toHaveURL("/login");
  await expect(flash(visitor.page)).toContainText("You declined the share. The song's owner is told, and the share goes back to them.");
  // The link is spent.
  browserErrors.allowStatus(410);
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole("alert")).toHaveText("This share was declined already. Log in to see the split sheet.");
  await visitor.context.close();

  await page.reload();
  await expect(partyRow(page, 1, outsider)).toContainText("Declined");
  await splits(page)
    .getByText(/^History \(\d+\)$/)
    .click();
  await expect(splits(page)).toContainText(`${outsider} declined 25.00% of version 1: that share goes back to the artist page's owner.`);
});

test("the release profile lists each track's split in force and the version coming next, leading to the song's sheet", async ({ page, app }) => {
  const miaId = await logInMember(app, DEMO.member, DEMO_PASSWORD);
  await app.goto(`/member/${miaId}/releases`);
  await page.getByRole("link", { name: "Edit Late Trains" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Late Trains" })).toBeVisible();
  const section = page.getByRole("region", { name: "Splits" });
  const track = section.getByRole("listitem").filter({ hasText: "1. Late Trains" });
  await expect(track).toContainText("Mia Member 50.00% · Paul Producer 30.00% · nina@example.com 20.00% (held)");
  await expect(track).toContainText("Version 1, from 2026-01-01");
  await expect(section.getByRole("listitem").filter({ hasText: "2. Early Mornings" })).toContainText("No split: the artist page's owner receives 100%.");

  // Its link opens the song's sheet, where Nina's pending share is held.
  await track.getByRole("link", { name: "1. Late Trains" }).click();
  await expect(page).toHaveURL(/\/member\/\d+\/song-profile\/\d+#splits$/);
  await expect(page.getByRole("heading", { level: 1, name: "Late Trains" })).toBeVisible();
  await expect(partyRow(page, 1, "nina@example.com")).toContainText("Pending");
  await expect(versionCard(page, 1)).toContainText("In force");

  // Northbound: version 2 (70/30) is in force since 2026-07-01, after version 1 (Mia 100 %).
  await app.goto(`/member/${miaId}/releases`);
  await page.getByRole("link", { name: "Edit Northbound" }).click();
  const northbound = page.getByRole("region", { name: "Splits" }).getByRole("listitem").filter({ hasText: "1. Northbound" });
  await expect(northbound).toContainText("Mia Member 70.00% · Paul Producer 30.00%");
  await expect(northbound).toContainText("Version 2, from 2026-07-01");
});
