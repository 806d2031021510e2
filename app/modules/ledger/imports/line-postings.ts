import type { IncomeSource } from "~/db/schema";
import type { StatementKind } from "./statement-line";
import { Accounts, type AccountKey } from "../accounts.server";
import { allocateToSplit, commissionSplit, largestRemainder } from "../allocation";
import type { LineMatch, SongShares, SplitVersionShares } from "./match-index.server";

/**
 * The postings one statement line makes (docs/money.md "Allocation"), apart from its receipts side, which the
 * importer adds (the line's amount, negated). Pure: the caller supplies the match, the songs' splits and
 * the running recoup figures (updated in place), so a line is allocated the same way on every run.
 *
 * - Unmatched: the whole line to suspense.
 * - PRO: the matched member in full, no commission.
 * - Digital and license: the platform commission first; the net is shared by the split in force on the
 *   first day of the line's sale period (the artist page's owner 100 % without one). A release-level line
 *   (album sale) is spread over the release's tracks equally, then each part by its track's split.
 *   Accepted parties are paid, pending parties' shares are held, declined shares go to the owner.
 */
export interface LinePosting {
  account: AccountKey;
  amountMicros: bigint;
  source: IncomeSource | null;
  splitVersionId: number | null;
  songId: number | null;
  recoupMicros: bigint;
}

export interface LineContext {
  kind: StatementKind;
  amountMicros: bigint;
  salePeriodStart: string;
  match: LineMatch | null;
  commissionBps: number;
  song: (songId: number) => SongShares | undefined;
  recoupedSoFar: Map<number, bigint>;
}

/** The version in force on `day`: the confirmed version with the latest effective date on or before it. */
export function versionInForce(song: SongShares, day: string): SplitVersionShares | null {
  let found: SplitVersionShares | null = null;
  for (const version of song.versions) {
    if (version.effectiveFrom <= day) found = version;
    else break;
  }
  return found;
}

function shareSong(net: bigint, song: SongShares, day: string, source: IncomeSource, recoupedSoFar: Map<number, bigint>, out: LinePosting[]): void {
  const version = versionInForce(song, day);
  if (!version) {
    out.push({ account: Accounts.earnings(song.ownerId), amountMicros: net, source, splitVersionId: null, songId: song.songId, recoupMicros: 0n });
    return;
  }
  const recoupParty = version.parties.find((p) => p.recoupMicros > 0n);
  const recoup = recoupParty
    ? { partyKey: recoupParty.partyId, amountMicros: recoupParty.recoupMicros, recoupedSoFarMicros: recoupedSoFar.get(version.id) ?? 0n }
    : null;
  const allocation = allocateToSplit(
    net,
    version.parties.map((p) => ({ key: p.partyId, shareBps: p.shareBps })),
    recoup,
  );
  if (recoup) recoupedSoFar.set(version.id, recoup.recoupedSoFarMicros + allocation.recoupedMicros);
  allocation.parts.forEach((part, index) => {
    const party = version.parties[index]!;
    const account =
      party.status === "accepted" && party.userId !== null
        ? Accounts.earnings(party.userId)
        : party.status === "declined"
          ? Accounts.earnings(song.ownerId)
          : Accounts.held(party.partyId);
    out.push({ account, amountMicros: part.amountMicros, source, splitVersionId: version.id, songId: song.songId, recoupMicros: part.recoupMicros });
  });
}

export function linePostings(line: LineContext): LinePosting[] {
  const out: LinePosting[] = [];
  const { match } = line;
  const suspense = () => [
    { account: Accounts.suspense(), amountMicros: line.amountMicros, source: null, splitVersionId: null, songId: null, recoupMicros: 0n },
  ];
  if (!match) return suspense();
  if (match.type === "member") {
    return [
      {
        account: Accounts.earnings(match.memberId),
        amountMicros: line.amountMicros,
        source: "pro",
        splitVersionId: null,
        songId: match.songId,
        recoupMicros: 0n,
      },
    ];
  }
  const source: IncomeSource = line.kind === "license" ? "license" : "digital";
  const songIds = match.type === "song" ? [match.songId] : match.songIds;
  const songsShared = songIds.map((id) => line.song(id));
  if (songsShared.some((s) => !s)) return suspense();
  const { commission, net } = commissionSplit(line.amountMicros, line.commissionBps);
  out.push({ account: Accounts.commission(), amountMicros: commission, source: null, splitVersionId: null, songId: null, recoupMicros: 0n });
  const perTrack = largestRemainder(
    net,
    songIds.map(() => 1n),
  );
  songsShared.forEach((song, index) => shareSong(perTrack[index]!, song!, line.salePeriodStart, source, line.recoupedSoFar, out));
  return out;
}
