import { eq, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { newestFirst } from "~/db/list-queries";
import { projectReviews, projects, users, type ProjectReview } from "~/db/schema";
import { validId, type MarketplaceActor } from "./access.server";
import { MarketplaceError, NO_PROJECT } from "./marketplace-errors";
import { LIMITS } from "./marketplace-rules";
import { notifyParties, PROJECT_ROUTE } from "./notify.server";
import { cleanText } from "./work-requests.server";

/**
 * Reviews: after a completed, paid project (its escrow released to the provider, in full or in an
 * administrator's split) its client leaves one rating (1 to 5) and a text, shown on the provider's profile as
 * verified. A second review is refused by the unique project index.
 */
export async function leaveReview(actor: MarketplaceActor, projectId: number, rating: unknown, body: unknown, now = new Date()): Promise<ProjectReview> {
  const stars = typeof rating === "string" && /^[1-5]$/.test(rating.trim()) ? Number(rating) : rating;
  if (typeof stars !== "number" || !Number.isInteger(stars) || stars < 1 || stars > 5)
    throw new MarketplaceError(400, "Choose a rating from 1 to 5.", "rating");
  const text = cleanText(body);
  if (text.length > LIMITS.reviewMax) throw new MarketplaceError(400, `A review is at most ${LIMITS.reviewMax} characters.`, "body");
  if (!validId(projectId)) throw new MarketplaceError(404, NO_PROJECT);
  // A completed, paid project never changes again, so the rules read here still hold at the insert; the unique
  // project index refuses a second review, even a concurrent one.
  const [project] = await db().select().from(projects).where(eq(projects.id, projectId));
  if (!project || project.clientId !== actor.id) throw new MarketplaceError(404, NO_PROJECT);
  if (project.status !== "completed" || !["released", "split"].includes(project.fundingStatus)) {
    throw new MarketplaceError(409, "Only a completed, paid project can be reviewed.");
  }
  const [row] = await db()
    .insert(projectReviews)
    .values({ projectId: project.id, clientId: project.clientId, providerProfileId: project.providerProfileId, rating: stars, body: text, createdAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new MarketplaceError(409, "You reviewed this project already.");
  await notifyParties([project.providerOwnerId], actor.id, {
    type: "ProjectReviewed",
    message: `Your client reviewed project #${projectId}: ${row.rating} of 5.`,
    color: "green",
    routeName: PROJECT_ROUTE,
    resourceId: projectId,
  });
  return row;
}

export interface ProfileReviews {
  count: number;
  /** The average rating times 100 (integer), or null without reviews. */
  averageX100: number | null;
  reviews: Array<{ id: number; projectId: number; rating: number; body: string; clientName: string; createdAt: Date; verified: true }>;
}

/** A provider profile's reviews, newest first (20), with their count and average. Two statements. */
export async function profileReviews(profileId: number, limit = 20): Promise<ProfileReviews> {
  if (!validId(profileId)) return { count: 0, averageX100: null, reviews: [] };
  const [rows, [summary]] = await Promise.all([
    db()
      .select({
        id: projectReviews.id,
        projectId: projectReviews.projectId,
        rating: projectReviews.rating,
        body: projectReviews.body,
        clientName: sql<string>`${users.name} || ' ' || left(${users.lastName}, 1) || '.'`,
        createdAt: projectReviews.createdAt,
      })
      .from(projectReviews)
      .innerJoin(users, eq(users.id, projectReviews.clientId))
      .where(eq(projectReviews.providerProfileId, profileId))
      .orderBy(...newestFirst(projectReviews.createdAt, projectReviews.id))
      .limit(limit),
    db()
      .select({ count: sql<number>`count(*)::int`, avg: sql<number | null>`round(avg(${projectReviews.rating}) * 100)::int` })
      .from(projectReviews)
      .where(eq(projectReviews.providerProfileId, profileId)),
  ]);
  return { count: summary?.count ?? 0, averageX100: summary?.avg ?? null, reviews: rows.map((r) => ({ ...r, verified: true as const })) };
}
