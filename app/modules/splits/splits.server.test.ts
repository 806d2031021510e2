import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notifications, profiles, salesImports, splitParties, splitVersions, statementLines, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findSong, type SongDetail } from "~/modules/catalog/catalog.server";
import { createSong } from "~/modules/catalog/songs/song-editor.server";
import { SongDetailsSchema } from "~/modules/catalog/songs/song-schemas";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { awaitingConfirmation, dayBefore, formatBps, sharesTotalProblem } from "./split-rules";
import { dollarsToMicros, SplitProposalSchema } from "./split-schemas";
import { seedDemoSplits } from "./split-seed.server";
import { loadSplitSheet, memberShares, pendingSplitTasks, releaseSplitSummaries } from "./split-sheet.server";
import { answerSplit, confirmSplit, declineSplitByLink, isSplitParty, proposeSplit, splitInForce, withdrawSplit, type ProposalInput } from "./splits.server";

useTestDatabase();

const meta = { ip: "198.51.100.7", userAgent: "vitest" };
let mia: User;
let paul: User;
let artistId: number;

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
  const [artist] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls"));
  artistId = artist!.id;
});

async function newSong(title: string): Promise<SongDetail> {
  const created = await createSong(mia, artistId, SongDetailsSchema.parse({ title }));
  return (await findSong(created.id))!;
}

const proposal = (effectiveFrom: string, parties: Array<[string, number]>, recoup: ProposalInput["recoup"] = null): ProposalInput => ({
  effectiveFrom,
  note: "",
  parties: parties.map(([email, shareBps]) => ({ email, shareBps })),
  recoup,
});

describe("split rules", () => {
  it("formats shares and says how far off a total is", () => {
    expect(formatBps(3333)).toBe("33.33%");
    expect(sharesTotalProblem([5000, 5000])).toBeNull();
    expect(sharesTotalProblem([5000, 4000])).toBe("The shares total 90.00%: 10.00% short of 100%.");
    expect(sharesTotalProblem([6000, 4001])).toBe("The shares total 100.01%: 0.01% over 100%.");
    expect(dayBefore("2026-07-01")).toBe("2026-06-30");
    expect(dayBefore("2028-03-01")).toBe("2028-02-29");
  });

  it("the proposal form refuses a wrong total, a repeated party, a half-filled recoup and a date that does not exist", () => {
    const form = (values: Record<string, unknown>) =>
      SplitProposalSchema.safeParse({
        effectiveFrom: "2027-01-01",
        parties: [
          { email: "a@example.com", share: "60" },
          { email: "b@example.com", share: "40" },
        ],
        ...values,
      });
    expect(form({}).success).toBe(true);
    const short = form({
      parties: [
        { email: "a@example.com", share: "60" },
        { email: "b@example.com", share: "30" },
      ],
    });
    expect(short.error?.issues.map((i) => i.message)).toContain("The shares total 90.00%: 10.00% short of 100%.");
    const twice = form({
      parties: [
        { email: "a@example.com", share: "50" },
        { email: "A@example.com", share: "50" },
      ],
    });
    expect(twice.error?.issues.map((i) => i.message)).toContain("This address is already party 1.");
    expect(form({ recoupAmount: "1500" }).error?.issues.map((i) => i.message)).toContain("Choose who recoups this amount first.");
    expect(form({ recoupParty: 3, recoupAmount: "10" }).error?.issues.map((i) => i.message)).toContain("Choose one of the parties above.");
    expect(form({ effectiveFrom: "2027-02-30" }).success).toBe(false);
    // Trailing blank rows (the no-JavaScript spare rows) are dropped.
    expect(
      form({
        parties: [
          { email: "a@example.com", share: "100" },
          { email: "", share: "" },
        ],
      }).success,
    ).toBe(true);
    expect(dollarsToMicros("1500.5")).toBe(1_500_500_000n);
    expect(dollarsToMicros("1,500")).toBeNull();
  });
});

describe("the demo splits (DEMO.md)", () => {
  it("are seeded exactly, once", async () => {
    const lateTrains = await findSongByIsrc("USBL12600001");
    const inForce = await splitInForce(lateTrains, "2026-03-15");
    expect(inForce?.version.effectiveFrom).toBe("2026-01-01");
    expect(inForce?.parties.map((p) => [p.email, p.shareBps, p.status])).toEqual([
      ["member@example.com", 5000, "accepted"],
      ["producer@example.com", 3000, "accepted"],
      ["nina@example.com", 2000, "pending"],
    ]);
    const northbound = await findSongByIsrc("USBL12600005");
    expect((await splitInForce(northbound, "2026-06-01"))?.parties.map((p) => [p.email, p.shareBps])).toEqual([["member@example.com", 10000]]);
    expect((await splitInForce(northbound, "2026-07-01"))?.parties.map((p) => [p.email, p.shareBps])).toEqual([
      ["member@example.com", 7000],
      ["producer@example.com", 3000],
    ]);
    expect(await splitInForce(northbound, "2025-12-31")).toBeNull();
    // Seeding again adds nothing.
    const before = (await db().select({ id: splitVersions.id }).from(splitVersions)).length;
    await db().transaction((tx) => seedDemoSplits(tx));
    expect((await db().select({ id: splitVersions.id }).from(splitVersions)).length).toBe(before);
  });

  it("every party, pending ones included, sees the whole sheet; nobody else is a party", async () => {
    const northbound = await findSongByIsrc("USBL12600005");
    const sheet = await loadSplitSheet(northbound, paul, { today: "2026-11-25" });
    expect(sheet.versions.map((v) => [v.number, v.state, v.effectiveFrom, v.effectiveTo])).toEqual([
      [2, "in_force", "2026-07-01", null],
      [1, "superseded", "2026-01-01", "2026-06-30"],
    ]);
    expect(await isSplitParty(northbound, paul)).toBe(true);
    const stranger = await createUser({ email: uniqueEmail("stranger") });
    expect(await isSplitParty(northbound, stranger)).toBe(false);
    // Nina, once she has an account with her verified address, is a party of Late Trains.
    const nina = await createUser({ email: "nina@example.com", emailVerifiedAt: new Date() });
    const lateTrains = await findSongByIsrc("USBL12600001");
    expect(await isSplitParty(lateTrains, nina)).toBe(true);
    expect((await pendingSplitTasks(nina)).map((t) => [t.songTitle, t.shareBps])).toEqual([["Late Trains", 2000]]);
    const shares = await memberShares(paul, "2026-11-25");
    expect(shares.map((s) => [s.songTitle, s.current?.shareBps])).toEqual([
      ["Late Trains", 3000],
      ["Northbound", 3000],
    ]);
  });

  it("a release profile sees each track's split in force and what comes next, in one statement", async () => {
    const lateTrains = await findSongByIsrc("USBL12600001");
    const northbound = await findSongByIsrc("USBL12600005");
    const unsplit = await newSong("No split yet");
    const [late, north, none] = await releaseSplitSummaries([lateTrains, northbound, unsplit.id], "2026-03-01");
    expect(late.inForce?.parties.map((p) => [p.shareBps, p.status])).toEqual([
      [5000, "accepted"],
      [3000, "accepted"],
      [2000, "pending"],
    ]);
    expect(late.upcoming).toBeNull();
    expect([north.inForce?.number, north.upcoming]).toEqual([1, { number: 2, effectiveFrom: "2026-07-01", state: "scheduled", pendingAnswers: 0 }]);
    expect(none).toEqual({ songId: unsplit.id, inForce: null, upcoming: null });
    expect(await releaseSplitSummaries([])).toEqual([]);
  });
});

async function findSongByIsrc(isrc: string): Promise<number> {
  const song = await db().query.songs.findFirst({ where: (s, { eq }) => eq(s.isrc, isrc) });
  return song!.id;
}

describe("proposing, answering and confirming", () => {
  it("refuses shares that do not total 100% and repeated parties, and writes nothing", async () => {
    const song = await newSong("Split Totals");
    await expect(
      proposeSplit(
        mia,
        song,
        proposal("2027-01-01", [
          ["member@example.com", 6000],
          ["producer@example.com", 3000],
        ]),
        meta,
      ),
    ).rejects.toMatchObject({
      status: 400,
      message: "The shares total 90.00%: 10.00% short of 100%.",
    });
    await expect(
      proposeSplit(
        mia,
        song,
        proposal("2027-01-01", [
          ["member@example.com", 5000],
          ["MEMBER@example.com", 5000],
        ]),
        meta,
      ),
    ).rejects.toMatchObject({ status: 400 });
    expect(await db().select().from(splitVersions).where(eq(splitVersions.songId, song.id))).toEqual([]);
  });

  it("a member and an address are invited; the proposer's own share is accepted; one proposal at a time", async () => {
    const song = await newSong("Split Invites");
    const outsider = uniqueEmail("outsider");
    const { version, parties, inviteUrls } = await proposeSplit(
      mia,
      song,
      proposal("2027-01-01", [
        ["member@example.com", 6000],
        ["producer@example.com", 2500],
        [outsider, 1500],
      ]),
      meta,
    );
    expect(version.number).toBe(1);
    expect(parties.map((p) => [p.name, p.status, p.userId])).toEqual([
      ["Mia Member", "accepted", mia.id],
      ["Paul Producer", "pending", paul.id],
      [outsider, "pending", null],
    ]);
    expect(parties[0]!.answeredIp).toBe(meta.ip);
    // Only the address without an account gets a signed link.
    expect([...inviteUrls.keys()]).toEqual([parties[2]!.id]);
    expect(inviteUrls.get(parties[2]!.id)).toMatch(/\/share-split-proposals\/create-account\?party=[0-9a-f-]{36}&expires=\d+&signature=[0-9a-f]{64}$/);
    await expect(proposeSplit(mia, song, proposal("2027-02-01", [["member@example.com", 10000]]), meta)).rejects.toMatchObject({ status: 409 });
    // Paul's task is on his dashboard.
    expect((await pendingSplitTasks(paul)).some((t) => t.songId === song.id && t.shareBps === 2500)).toBe(true);
  });

  it("only the addressee answers, once; a decline goes back to the owner in the history", async () => {
    const song = await newSong("Split Answers");
    const { parties } = await proposeSplit(
      mia,
      song,
      proposal("2027-01-01", [
        ["member@example.com", 7000],
        ["producer@example.com", 3000],
      ]),
      meta,
    );
    const paulParty = parties[1]!;
    const stranger = await createUser({ email: uniqueEmail("stranger"), emailVerifiedAt: new Date() });
    await expect(answerSplit(stranger, paulParty.id, "accepted", meta)).rejects.toMatchObject({ status: 404 });
    await expect(answerSplit(paul, "not-a-uuid", "accepted", meta)).rejects.toMatchObject({ status: 404 });
    const { party } = await answerSplit(paul, paulParty.id, "declined", { ip: "203.0.113.9", userAgent: "test" });
    expect([party.status, party.answeredIp]).toEqual(["declined", "203.0.113.9"]);
    await expect(answerSplit(paul, paulParty.id, "accepted", meta)).rejects.toMatchObject({ status: 409 });
    const sheet = await loadSplitSheet(song.id, mia);
    expect(sheet.history[0]!.message).toBe("Paul Producer declined 30.00% of version 1: that share goes back to the artist page's owner.");
  });

  it("when the last party accepts, the proposal says it waits for the owner's confirmation and the owner is told", async () => {
    const song = await newSong("Split Ready");
    const address = uniqueEmail("ready");
    const { version, parties } = await proposeSplit(
      mia,
      song,
      proposal("2027-03-01", [
        ["member@example.com", 6000],
        ["producer@example.com", 3000],
        [address, 1000],
      ]),
      meta,
    );
    const notesOfMia = async () =>
      db().select().from(notifications).where(eq(notifications.userId, mia.id)).orderBy(asc(notifications.createdAt), asc(notifications.id));
    const before = (await notesOfMia()).length;
    // Paul accepts while the address has not answered: an ordinary notice, the proposal still waits for answers.
    await answerSplit(paul, parties[1]!.id, "accepted", meta);
    let notes = (await notesOfMia()).slice(before);
    expect(notes.map((n) => n.type)).toEqual(["SplitAccepted"]);
    let sheet = await loadSplitSheet(song.id, mia);
    expect(awaitingConfirmation(sheet.versions[0]!.parties)).toBeNull();
    // The address's invitee creates an account and accepts: the last answer. Mia is told to confirm.
    const invitee = await createUser({ email: address, emailVerifiedAt: new Date(), name: "Ivy", lastName: "Invitee" });
    await answerSplit(invitee, parties[2]!.id, "accepted", meta);
    notes = (await notesOfMia()).slice(before);
    expect(notes.map((n) => n.type)).toEqual(["SplitAccepted", "SplitReadyToConfirm"]);
    expect(notes[1]!.data).toMatchObject({
      message: `Ivy Invitee accepted 10.00% of the split of “Split Ready”. Every party has accepted: confirm version ${version.number} to put it in force from 2027-03-01.`,
      route_name: "member-song-profile",
      route_hash: "splits",
    });
    sheet = await loadSplitSheet(song.id, paul);
    expect(sheet.versions[0]!.state).toBe("proposed");
    expect(sheet.versions[0]!.parties.map((p) => [p.name, p.isOwner])).toEqual([
      ["Mia Member", true],
      ["Paul Producer", false],
      [address, false],
    ]);
    expect(awaitingConfirmation(sheet.versions[0]!.parties)).toBe("accepted");
  });

  it("counts the owner's own pending share as not waiting, and a decline as an answer", () => {
    expect(
      awaitingConfirmation([
        { status: "pending", isOwner: true },
        { status: "accepted", isOwner: false },
      ]),
    ).toBe("accepted");
    expect(
      awaitingConfirmation([
        { status: "accepted", isOwner: true },
        { status: "declined", isOwner: false },
      ]),
    ).toBe("answered");
    expect(
      awaitingConfirmation([
        { status: "accepted", isOwner: true },
        { status: "pending", isOwner: false },
      ]),
    ).toBeNull();
  });

  it("an invitee without an account declines from the link; a linked party must log in", async () => {
    const song = await newSong("Split Link Decline");
    const address = uniqueEmail("link");
    const { parties } = await proposeSplit(
      mia,
      song,
      proposal("2027-01-01", [
        ["member@example.com", 9000],
        [address, 1000],
      ]),
      meta,
    );
    await expect(declineSplitByLink(parties[0]!.id, meta)).rejects.toMatchObject({ status: 409 });
    const { party } = await declineSplitByLink(parties[1]!.id, meta);
    expect(party.status).toBe("declined");
  });

  it("only the owner or an admin confirms; a confirmed version is in force from its date and stays until the next", async () => {
    const song = await newSong("Split Versions");
    const editor = await createUser({ email: uniqueEmail("editor") });
    const { version: v1 } = await proposeSplit(mia, song, proposal("2026-01-01", [["member@example.com", 10000]]), meta);
    await expect(confirmSplit(editor, song, v1.id, meta)).rejects.toMatchObject({ status: 403 });
    await confirmSplit(mia, song, v1.id, meta);
    await expect(confirmSplit(mia, song, v1.id, meta)).rejects.toMatchObject({ status: 409 });
    // Versions never overlap: a new one starts after the latest confirmed one.
    await expect(proposeSplit(mia, song, proposal("2026-01-01", [["member@example.com", 10000]]), meta)).rejects.toMatchObject({
      status: 400,
      field: "effectiveFrom",
      message: "Version 1 starts on 2026-01-01: a new version must start after it, on 2026-01-02 or later.",
    });
    const { version: v2, parties } = await proposeSplit(
      mia,
      song,
      proposal("2026-09-01", [
        ["member@example.com", 8000],
        ["producer@example.com", 2000],
      ]),
      meta,
    );
    // Still a proposal: version 1 is in force on every date.
    expect((await splitInForce(song.id, "2026-10-01"))?.version.id).toBe(v1.id);
    await confirmSplit(mia, song, v2.id, meta);
    expect((await splitInForce(song.id, "2026-08-31"))?.version.id).toBe(v1.id);
    expect((await splitInForce(song.id, "2026-09-01"))?.version.id).toBe(v2.id);
    // Paul has not answered: his party is pending in the version in force (his share is held).
    expect((await splitInForce(song.id, "2026-09-01"))?.parties.find((p) => p.id === parties[1]!.id)?.status).toBe("pending");
    await answerSplit(paul, parties[1]!.id, "accepted", meta);
    expect((await splitInForce(song.id, "2026-09-01"))?.parties.find((p) => p.id === parties[1]!.id)?.status).toBe("accepted");
    const sheet = await loadSplitSheet(song.id, paul, { today: "2026-11-25" });
    expect(sheet.versions.map((v) => [v.number, v.state, v.effectiveTo])).toEqual([
      [2, "in_force", null],
      [1, "superseded", "2026-08-31"],
    ]);
  });

  it("a change to a period the ledger has posted is refused with the reason", async () => {
    const song = await newSong("Split Posted");
    const [upload] = await db()
      .insert(salesImports)
      .values({ kind: "digital", status: "completed", fileName: "s.csv", filePath: "x", fileSha256: `sha-${song.id}`, fileBytes: 1 })
      .returning();
    await db().insert(statementLines).values({
      importId: upload!.id,
      lineNo: 1,
      kind: "digital",
      salePeriodStart: "2026-05-01",
      salePeriodEnd: "2026-05-31",
      source: "Spotify",
      originalAmountMicros: 1_000_000n,
      originalCurrency: "USD",
      amountMicros: 1_000_000n,
      songId: song.id,
      matchedBy: "isrc",
    });
    await expect(proposeSplit(mia, song, proposal("2026-04-01", [["member@example.com", 10000]]), meta)).rejects.toMatchObject({
      status: 400,
      message:
        "Sales up to the period starting 2026-05-01 are already posted and paid under the split in force then. A new version can start on 2026-05-02 or later.",
    });
    const { version } = await proposeSplit(mia, song, proposal("2026-06-01", [["member@example.com", 10000]]), meta);
    // Posted after the proposal: confirming re-checks.
    await db().insert(statementLines).values({
      importId: upload!.id,
      lineNo: 2,
      kind: "digital",
      salePeriodStart: "2026-06-01",
      salePeriodEnd: "2026-06-30",
      source: "Spotify",
      originalAmountMicros: 1_000_000n,
      originalCurrency: "USD",
      amountMicros: 1_000_000n,
      songId: song.id,
      matchedBy: "isrc",
    });
    await expect(confirmSplit(mia, song, version.id, meta)).rejects.toMatchObject({ status: 409 });
    expect((await db().select().from(splitVersions).where(eq(splitVersions.id, version.id)))[0]!.status).toBe("proposed");
  });

  it("withdraws a proposal, or a confirmed version before it is in force, never one in force", async () => {
    const song = await newSong("Split Withdraw");
    const { version: v1 } = await proposeSplit(mia, song, proposal("2026-01-01", [["member@example.com", 10000]]), meta);
    await confirmSplit(mia, song, v1.id, meta);
    await expect(withdrawSplit(mia, song, v1.id, meta, "2026-11-25")).rejects.toMatchObject({ status: 409 });
    const { version: v2 } = await proposeSplit(mia, song, proposal("2030-01-01", [["member@example.com", 10000]]), meta);
    const withdrawn = await withdrawSplit(mia, song, v2.id, meta, "2026-11-25");
    expect(withdrawn.status).toBe("withdrawn");
    const { version: v3 } = await proposeSplit(mia, song, proposal("2030-01-01", [["member@example.com", 10000]]), meta);
    await confirmSplit(mia, song, v3.id, meta);
    expect((await withdrawSplit(mia, song, v3.id, meta, "2026-11-25")).status).toBe("withdrawn");
    // A withdrawn version's party can no longer answer.
    const [party] = await db()
      .select()
      .from(splitParties)
      .where(and(eq(splitParties.versionId, v2.id)));
    await expect(answerSplit(mia, party!.id, "accepted", meta)).rejects.toMatchObject({ status: 404 });
  });

  it("keeps one recoup amount on its party", async () => {
    const song = await newSong("Split Recoup");
    const { parties } = await proposeSplit(
      mia,
      song,
      proposal(
        "2027-01-01",
        [
          ["member@example.com", 5000],
          ["producer@example.com", 5000],
        ],
        { partyIndex: 1, amountMicros: 1_500_000_000n },
      ),
      meta,
    );
    expect(parties.map((p) => p.recoupMicros)).toEqual([0n, 1_500_000_000n]);
    const sheet = await loadSplitSheet(song.id, mia);
    expect(sheet.versions[0]!.parties[1]!.recoup).toBe("$1,500.00");
  });
});
