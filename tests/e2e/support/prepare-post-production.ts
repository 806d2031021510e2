/** E2E data for tests/e2e/post-production/, made before the server starts (prepare.ts). */
import { profiles, songs } from "../../../app/db/schema";
import { db } from "../../../app/db/client.server";
import { Accounts } from "../../../app/modules/ledger/accounts.server";
import { postEntry } from "../../../app/modules/ledger/journal.server";
import {
  PP_CARD_ARTIST,
  PP_CARD_OWNER,
  PP_CARD_SONG,
  PP_ENGINEER,
  PP_FRESH,
  PP_FRESH_SONG,
  PP_OWNER,
  PP_OWNER_EARNINGS_CENTS,
  PP_PASSWORD,
  PP_SONG,
  PP_THIRD,
} from "../post-production/accounts";
import { createReadyMembers } from "./community-members.server";

export async function preparePostProductionData(): Promise<string> {
  const ids = await createReadyMembers(
    [
      { email: PP_OWNER, name: "Olive", lastName: "Owner" },
      { email: PP_ENGINEER, name: "Eddie", lastName: "Engineer" },
      { email: PP_THIRD, name: "Theo", lastName: "Third" },
      { email: PP_FRESH, name: "Fay", lastName: "Fresh" },
      { email: PP_CARD_OWNER, name: "Carla", lastName: "Card" },
    ],
    PP_PASSWORD,
  );
  const now = new Date();
  for (const [email, username, name, title] of [
    [PP_OWNER, "pp-harbour", "Harbour Band", PP_SONG],
    [PP_FRESH, "pp-paper", "Paper Band", PP_FRESH_SONG],
    [PP_CARD_OWNER, "pp-ferry", PP_CARD_ARTIST, PP_CARD_SONG],
  ] as const) {
    const ownerId = ids.get(email)!;
    const [artist] = await db()
      .insert(profiles)
      .values({ type: "artist", ownerId, name, username, status: "published", publishedAt: now })
      .returning({ id: profiles.id });
    await db().insert(songs).values({ artistId: artist!.id, title, createdBy: ownerId });
  }
  // The owner's income, as a digital statement posts it (receipts → earnings): the balance they pay the job from.
  const micros = BigInt(PP_OWNER_EARNINGS_CENTS) * 10_000n;
  await db().transaction((tx) =>
    postEntry(tx, {
      kind: "test_income",
      memo: "e2e income for paying a post-production job",
      postings: [
        { account: Accounts.receipts("digital"), amountMicros: -micros, source: "digital" },
        { account: Accounts.earnings(ids.get(PP_OWNER)!), amountMicros: micros, source: "digital" },
      ],
    }),
  );
  return "post-production: 5 members, 3 songs, the owner's earnings";
}
