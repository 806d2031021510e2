/** E2E data for tests/e2e/affiliates/, made before the server starts (prepare.ts). */
import { inArray, sql } from "drizzle-orm";
import { db } from "../../../app/db/client.server";
import { affiliates, profiles, songs, users } from "../../../app/db/schema";
import { AFF, AFF_CODES, AFF_EARNER_BPS, AFF_ISRC, AFF_PASSWORD, AFF_SONG } from "../affiliates/affiliate-accounts";
import { createReadyMembers } from "./community-members.server";

export async function prepareAffiliatesData(): Promise<string> {
  await createReadyMembers(
    [
      { email: AFF.earner, name: "Erin", lastName: "Earner" },
      { email: AFF.referred, name: "Rhea", lastName: "Referred" },
      { email: AFF.first, name: "Fiona", lastName: "First" },
      { email: AFF.second, name: "Sid", lastName: "Second" },
      { email: AFF.applicant, name: "Abe", lastName: "Applicant" },
      { email: AFF.toApprove, name: "Penny", lastName: "Pending" },
      { email: AFF.toReject, name: "Rex", lastName: "Rejected" },
      { email: AFF.stranger, name: "Stella", lastName: "Stranger" },
      { email: AFF.noJs, name: "Nora", lastName: "Nojs" },
      { email: AFF.noJsReject, name: "Ned", lastName: "Plainform" },
    ],
    AFF_PASSWORD,
  );
  const rows = await db()
    .select()
    .from(users)
    .where(inArray(users.email, Object.values(AFF)));
  const id = (email: string) => rows.find((u) => u.email === email)!.id;
  const now = new Date();
  const approved = (email: string, code: string, bps = 2000) => ({
    userId: id(email),
    status: "approved" as const,
    code,
    audience: "A music blog read by independent artists",
    payoutMethod: "manual" as const,
    commissionBps: bps,
    decidedAt: now,
  });
  const pending = (email: string, audience: string) => ({ userId: id(email), audience, payoutMethod: "stripe" as const });
  const made = await db()
    .insert(affiliates)
    .values([
      approved(AFF.earner, AFF_CODES.earner, AFF_EARNER_BPS),
      approved(AFF.first, AFF_CODES.first),
      approved(AFF.second, AFF_CODES.second),
      pending(AFF.toApprove, "A YouTube channel about home studios, 40,000 subscribers"),
      pending(AFF.toReject, "A coupon site with no music audience"),
      pending(AFF.noJsReject, "A forum signature, a few readers"),
    ])
    .returning({ id: affiliates.id, userId: affiliates.userId });
  const earner = made.find((a) => a.userId === id(AFF.earner))!;
  // The referred member signed up through the earner's link (bound as registration does), and owns a song.
  await db().execute(sql`insert into affiliate_referrals (user_id, affiliate_id, first_touch_at) values (${id(AFF.referred)}, ${earner.id}, now())`);
  const [artist] = await db()
    .insert(profiles)
    .values({ type: "artist", ownerId: id(AFF.referred), name: "Affiliate Test Band", username: "affiliate-test-band", status: "published", publishedAt: now })
    .returning({ id: profiles.id });
  await db()
    .insert(songs)
    .values({ artistId: artist!.id, title: AFF_SONG, isrc: AFF_ISRC, createdBy: id(AFF.referred) });
  return `${made.length} affiliates, 1 referral, 1 song`;
}
