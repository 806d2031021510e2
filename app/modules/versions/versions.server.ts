import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import sanitizeHtml from "sanitize-html";
import { db } from "~/db/client.server";
import { processCache } from "~/db/process-cache.server";
import { appVersions, appVersionViews, users } from "~/db/schema";
import { publish } from "~/modules/notifications/broadcaster.server";
import { PublishVersionSchema } from "./version-schema";
import { VERSION_PUBLISHED_EVENT, VERSIONS_CHANNEL, type VersionContent, type WhatsNew } from "./versions";

/**
 * App versions and their "What's new" notes. Administrators publish a version
 * (HTML, sanitised); every signed-in user sees the newest one once, in a modal, and the view is recorded.
 */

// ---------------------------------------------------------------- sanitising

const sanitizeOptions: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "del",
    "mark",
    "small",
    "sub",
    "sup",
    "code",
    "pre",
    "kbd",
  ],
  allowedAttributes: { a: ["href", "title", "target", "rel"], ol: ["start"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowProtocolRelative: false,
  // <script>, <style> and friends go with their text; other unknown tags keep their text only.
  disallowedTagsMode: "discard",
  transformTags: {
    // A link may open in a new tab, and then never hands the page to the opened one.
    a: (tagName, attribs) => {
      const { target, rel: _rel, ...rest } = attribs;
      return { tagName, attribs: target ? { ...rest, target: "_blank", rel: "noopener noreferrer" } : rest };
    },
  },
};

/** Version notes are HTML written by administrators: headings, lists, links, emphasis and code only. */
export function sanitizeVersionHtml(html: string): string {
  return sanitizeHtml(html, sanitizeOptions).trim();
}

function hasVisibleText(html: string): boolean {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim().length > 0;
}

// ---------------------------------------------------------------- publishing

/** A publish refused by validation; `fieldErrors` go beside the form's fields. */
export class VersionValidationError extends Error {
  constructor(readonly fieldErrors: Partial<Record<"name" | "content", string[]>>) {
    super(Object.values(fieldErrors).flat().join(" "));
    this.name = "VersionValidationError";
  }
}

export interface PublishedVersion extends VersionContent {
  publishedAt: string;
}

/**
 * Stores a version (name 1-80 characters, sanitised content), counts it as seen by whoever published it,
 * then announces it on the public "app-versions" channel with only `{ id, name }`. The announcement is
 * best effort (see `publish`); `socketId` skips the publisher's own socket.
 */
export async function publishVersion(input: { name: string; content: string; publishedBy: number | null; socketId?: string }): Promise<PublishedVersion> {
  const parsed = PublishVersionSchema.safeParse({ name: input.name, content: input.content });
  if (!parsed.success) {
    const fieldErrors: Partial<Record<"name" | "content", string[]>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "name" ? "name" : "content";
      (fieldErrors[field] ??= []).push(issue.message);
    }
    throw new VersionValidationError(fieldErrors);
  }
  const content = sanitizeVersionHtml(parsed.data.content);
  if (!hasVisibleText(content)) {
    throw new VersionValidationError({
      content: ["Nothing readable is left once unsupported HTML is removed: write some text (headings, lists, links, emphasis, code)."],
    });
  }

  const row = await db().transaction(async (tx) => {
    const [created] = await tx.insert(appVersions).values({ name: parsed.data.name, content, publishedBy: input.publishedBy }).returning();
    // The author wrote it: no "What's new" about their own notes.
    if (input.publishedBy !== null) {
      await tx.insert(appVersionViews).values({ userId: input.publishedBy, versionId: created!.id }).onConflictDoNothing();
    }
    return created!;
  });
  latestVersionCache.invalidate();

  await publish([VERSIONS_CHANNEL], VERSION_PUBLISHED_EVENT, { id: row.id, name: row.name }, { socketId: input.socketId });
  return { id: row.id, name: row.name, content: row.content, publishedAt: row.publishedAt.toISOString() };
}

// ---------------------------------------------------------------- reading

/**
 * The newest version, sanitised, kept in memory: every area page asks for it and it changes only when an
 * admin publishes (which invalidates it here). Null when none was published.
 */
const latestVersionCache = processCache("latest-version", async (): Promise<VersionContent | null> => {
  const [row] = await db()
    .select({ id: appVersions.id, name: appVersions.name, content: appVersions.content })
    .from(appVersions)
    .orderBy(desc(appVersions.publishedAt), desc(appVersions.id))
    .limit(1);
  // Stored sanitised; sanitised again on the way out in case a row was written some other way.
  return row ? { id: row.id, name: row.name, content: sanitizeVersionHtml(row.content) } : null;
});

/** Forgets the cached newest version (after a version was written other than by publishVersion). */
export function invalidateLatestVersion(): void {
  latestVersionCache.invalidate();
}

/**
 * The newest version and whether this user has seen it: one primary-key look-up beside the cached version.
 * `fresh` reads the version from the database, for the live update that follows a publication on another node.
 */
export async function latestVersionFor(userId: number, options: { fresh?: boolean } = {}): Promise<(VersionContent & { seen: boolean }) | null> {
  if (options.fresh) latestVersionCache.invalidateHere();
  const latest = await latestVersionCache.get();
  if (!latest) return null;
  const [view] = await db()
    .select({ userId: appVersionViews.userId })
    .from(appVersionViews)
    .where(and(eq(appVersionViews.userId, userId), eq(appVersionViews.versionId, latest.id)))
    .limit(1);
  return { ...latest, seen: Boolean(view) };
}

/**
 * What the area layouts hand to <WhatsNew> (and what `GET /api/versions/latest` answers in `data`):
 * the newest version and whether this user has seen it, or null. One query.
 */
export async function whatsNewFor(userId: number, options: { fresh?: boolean } = {}): Promise<WhatsNew | null> {
  const latest = await latestVersionFor(userId, options);
  if (!latest) return null;
  const { seen, ...version } = latest;
  return { version, seen };
}

/**
 * Records that the user saw a version. Idempotent (the first time is kept). False when there is no
 * such version, for the API's 404; one query when it is new, two when it was already recorded.
 */
export async function recordView(userId: number, versionId: number): Promise<boolean> {
  if (!Number.isInteger(versionId) || versionId < 1 || versionId > 2_147_483_647) return false;
  const inserted = await db()
    .insert(appVersionViews)
    .select(
      db()
        .select({
          userId: sql<number>`${userId}::int`.as("user_id"),
          versionId: appVersions.id,
          viewedAt: sql<Date>`now()`.as("viewed_at"),
        })
        .from(appVersions)
        .where(eq(appVersions.id, versionId)),
    )
    .onConflictDoNothing()
    .returning({ versionId: appVersionViews.versionId });
  if (inserted.length) return true;
  const [existing] = await db().select({ id: appVersions.id }).from(appVersions).where(eq(appVersions.id, versionId)).limit(1);
  return Boolean(existing);
}

// ---------------------------------------------------------------- the admin list

export const VERSIONS_PAGE_SIZE = 25;

export interface VersionListRow extends PublishedVersion {
  publishedBy: string | null;
  seenCount: number;
}

export interface VersionList {
  versions: VersionListRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * One page of versions, newest first, with who published each and how many users have seen it, and the
 * total. Two queries, run together, whatever the page size.
 */
export async function listVersions(query: { page?: number; pageSize?: number } = {}): Promise<VersionList> {
  const pageSize = query.pageSize ?? VERSIONS_PAGE_SIZE;
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const pageRows = db()
    .$with("page_versions")
    .as(
      db()
        .select({
          id: appVersions.id,
          name: appVersions.name,
          content: appVersions.content,
          publishedAt: appVersions.publishedAt,
          publishedBy: appVersions.publishedBy,
        })
        .from(appVersions)
        .orderBy(desc(appVersions.publishedAt), desc(appVersions.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    );
  // Counted only for the versions on this page, in one grouped pass.
  const seen = db()
    .select({ versionId: appVersionViews.versionId, seenCount: sql<number>`count(*)::int`.as("seen_count") })
    .from(appVersionViews)
    .where(inArray(appVersionViews.versionId, db().select({ id: pageRows.id }).from(pageRows)))
    .groupBy(appVersionViews.versionId)
    .as("seen");
  const [rows, totals] = await Promise.all([
    db()
      .with(pageRows)
      .select({
        id: pageRows.id,
        name: pageRows.name,
        content: pageRows.content,
        publishedAt: pageRows.publishedAt,
        publisherName: users.name,
        publisherLastName: users.lastName,
        seenCount: seen.seenCount,
      })
      .from(pageRows)
      .leftJoin(users, eq(users.id, pageRows.publishedBy))
      .leftJoin(seen, eq(seen.versionId, pageRows.id))
      .orderBy(desc(pageRows.publishedAt), desc(pageRows.id)),
    db().select({ total: count() }).from(appVersions),
  ]);
  const total = Number(totals[0]?.total ?? 0);
  return {
    versions: rows.map((row) => ({
      id: row.id,
      name: row.name,
      content: sanitizeVersionHtml(row.content),
      publishedAt: new Date(row.publishedAt).toISOString(),
      publishedBy: row.publisherName === null ? null : `${row.publisherName} ${row.publisherLastName ?? ""}`.trim(),
      seenCount: Number(row.seenCount ?? 0),
    })),
    total,
    page,
    pageSize,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
  };
}
