import { RouteErrorPage } from "~/components/error-page";
import { Link, useParams } from "react-router";
import { Money } from "~/components/formatting";
import { ShareButtons } from "~/components/share/share-buttons";
import { StatusTag } from "~/components/status-tag";
import type { ProfileLink } from "~/db/schema";
import type { PublicPageData } from "./public-page.server";
import { LeaveBand } from "./band-section";
import { PROFILE_TYPE_INFO, RATE_UNIT_LABELS, REFERENCE_LABELS } from "./profile-types";

/**
 * An artist page or provider profile as the community sees it: header image, who they are, what they
 * do, prices, credits, samples and links, and the share buttons. The bio is shown as plain text.
 */

const externalLink = "font-medium text-brand-800 underline underline-offset-2 break-words hover:text-brand-900";

function ExternalLinks({ links, label }: { links: ProfileLink[]; label: string }) {
  return (
    <ul aria-label={label} className="space-y-1.5">
      {links.map((link, index) => (
        <li key={`${link.url}-${index}`}>
          <a href={link.url} target="_blank" rel="noopener noreferrer nofollow" className={externalLink}>
            {link.label || link.url}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-base font-semibold text-stone-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function PublicProfilePage({ data }: { data: PublicPageData }) {
  const { profile } = data;
  const info = PROFILE_TYPE_INFO[data.type];
  const paragraphs = profile.bio
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const values = data.values.filter((group) => group.values.length > 0);
  return (
    <article aria-labelledby="profile-name" className="mx-auto max-w-4xl space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link to={data.directoryPath} className="font-medium text-brand-800 underline-offset-2 hover:underline">
          <span aria-hidden="true">‹ </span>
          {info.label} Pages
        </Link>
      </nav>

      {data.notPublic ? (
        <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            This page is not public: only its owner, its band members and administrators can see it.
            <StatusTag status={data.notPublic.status} label={data.notPublic.label} />
          </p>
          {data.notPublic.rejectionReason ? <p className="mt-1">Reason given: {data.notPublic.rejectionReason}</p> : null}
        </div>
      ) : null}

      <div className="overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
        {data.hero ? (
          <img
            src={data.hero.src}
            srcSet={data.hero.srcSet}
            sizes="(min-width: 1024px) 896px, 100vw"
            width={728}
            height={410}
            alt={`Header image of ${profile.name}`}
            className="aspect-[728/410] h-auto w-full bg-stone-100 object-cover"
          />
        ) : null}
        <div className="flex flex-col gap-4 p-5 sm:flex-row sm:items-center sm:p-6">
          {profile.avatarImg ? (
            <img
              src={profile.avatarImg}
              width={96}
              height={96}
              alt={`Picture of ${profile.name}`}
              className="size-24 shrink-0 rounded-full object-cover ring-4 ring-white"
            />
          ) : null}
          <div className="min-w-0 flex-1">
            <p className="text-xs font-semibold tracking-wide text-brand-800 uppercase">{info.label}</p>
            <h1 id="profile-name" className="text-2xl font-semibold tracking-tight break-words text-stone-900">
              {profile.name}
            </h1>
            <p className="mt-1 text-sm text-stone-600">
              @{profile.username}
              {profile.location ? (
                <>
                  <span aria-hidden="true"> · </span>
                  <span className="sr-only">, </span>
                  {profile.location}
                </>
              ) : null}
            </p>
          </div>
          {data.hirePath ? (
            <Link
              to={data.hirePath}
              className="inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
            >
              Request work<span className="sr-only"> from {profile.name}</span>
            </Link>
          ) : null}
          {data.editPath ? (
            <Link
              to={data.editPath}
              className="inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-4 py-2 text-sm font-semibold text-stone-800 shadow-sm hover:bg-stone-50"
            >
              Edit<span className="sr-only"> {profile.name}</span>
            </Link>
          ) : null}
        </div>
      </div>

      <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="space-y-6">
          <Section id="profile-about" title="About">
            {paragraphs.length ? (
              <div className="space-y-3 text-stone-800">
                {paragraphs.map((paragraph, index) => (
                  // Single line breaks kept as typed; React escapes the text, so no markup ever renders.
                  <p key={index} className="whitespace-pre-line break-words">
                    {paragraph}
                  </p>
                ))}
              </div>
            ) : (
              <p className="text-sm text-stone-500">No bio yet.</p>
            )}
          </Section>

          {info.provider ? (
            <Section id="profile-rates" title="Rates">
              {data.rates.length ? (
                <ul className="divide-y divide-stone-100 rounded-lg border border-stone-200 bg-white">
                  {data.rates.map((rate) => (
                    <li key={rate.id} className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3">
                      <span className="text-stone-800">{rate.label}</span>
                      <span>
                        <span className="font-semibold text-stone-900">
                          <Money cents={rate.amountCents} currency={rate.currency} />
                        </span>{" "}
                        <span className="text-sm text-stone-600">{RATE_UNIT_LABELS[rate.unit]}</span>
                      </span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-stone-500">No rates listed; ask for a quote.</p>
              )}
            </Section>
          ) : null}

          {profile.credits.length ? (
            <Section id="profile-credits" title="Credits">
              <ul className="space-y-2">
                {profile.credits.map((credit, index) => (
                  <li key={index} className="text-stone-800">
                    <span className="font-medium">{credit.title}</span>
                    {credit.role ? <span className="text-stone-600"> — {credit.role}</span> : null}
                    {credit.year ? <span className="text-stone-500"> ({credit.year})</span> : null}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          {profile.sampleLinks.length ? (
            <Section id="profile-samples" title="Samples">
              <ExternalLinks links={profile.sampleLinks} label="Samples" />
            </Section>
          ) : null}
        </div>

        <div className="space-y-6">
          {values.map((group) => (
            <Section key={group.kind} id={`profile-${group.kind}`} title={REFERENCE_LABELS[group.kind].plural}>
              <ul className="flex flex-wrap gap-1.5">
                {group.values.map((value) => (
                  <li key={value.id} className="rounded-full bg-stone-100 px-2.5 py-1 text-sm text-stone-800">
                    {value.name}
                  </li>
                ))}
              </ul>
            </Section>
          ))}

          {data.type === "artist" && data.band.length ? (
            <Section id="profile-band" title="Band members">
              <ul className="space-y-1 text-stone-800">
                {data.band.map((member, index) => (
                  <li key={index}>
                    {member.name}
                    {member.role === "owner" ? <span className="text-sm text-stone-500"> (owner)</span> : null}
                  </li>
                ))}
              </ul>
              {data.canLeaveBand ? <LeaveBand /> : null}
            </Section>
          ) : null}

          {data.verifiedCredits.length ? (
            <Section id="profile-verified-credits" title="Verified credits">
              <ul className="space-y-2 text-sm">
                {data.verifiedCredits.map((c) => (
                  <li key={`${c.href}-${c.songTitle}-${c.role}`}>
                    <span className="text-stone-600">{c.role} on</span> “{c.songTitle}” ·{" "}
                    <Link to={c.href} className="font-medium text-brand-900 hover:underline">
                      {c.releaseTitle}
                    </Link>{" "}
                    <span className="text-stone-600">by {c.artistName}</span>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          {data.projectCredits.length ? (
            <Section id="profile-project-credits" title="Hired through Backline">
              <ul aria-label="Credits from completed projects" className="space-y-2 text-sm">
                {data.projectCredits.map((c) => (
                  <li key={c.projectId}>
                    <span className="text-stone-600">{c.service} on</span> “{c.songTitle}” <span className="text-stone-600">by {c.artistName}</span>{" "}
                    <span className="text-xs text-stone-500">(verified: a completed, paid project)</span>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          {data.reviews?.count ? (
            <Section id="profile-reviews" title="Reviews">
              <p className="text-sm text-stone-700">
                {data.reviews.average} of 5 from {data.reviews.count} verified {data.reviews.count === 1 ? "review" : "reviews"} (completed, paid projects).
              </p>
              <ul aria-label="Reviews" className="space-y-3 text-sm">
                {data.reviews.items.map((r) => (
                  <li key={r.id}>
                    <p>
                      <span aria-hidden="true" className="text-amber-600">
                        {"★".repeat(r.rating)}
                        {"☆".repeat(5 - r.rating)}
                      </span>{" "}
                      {r.rating} of 5 · {r.clientName} · verified
                    </p>
                    {r.body ? <p className="whitespace-pre-wrap text-stone-800">{r.body}</p> : null}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          {profile.links.length ? (
            <Section id="profile-links" title="Links">
              <ExternalLinks links={profile.links} label="Links" />
            </Section>
          ) : null}
        </div>
      </div>

      {data.notPublic ? null : (
        <div className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
          <ShareButtons {...data.share} heading={`Share ${profile.name}`} />
        </div>
      )}
    </article>
  );
}

/** A profile that does not exist, or that this user may not see: the area's Not Found, inside its layout. */
export function PublicPageErrorBoundary() {
  const params = useParams();
  return <RouteErrorPage homeHref={params.memberId ? `/member/${params.memberId}/dashboard` : "/admin/dashboard"} homeLabel="Back to the dashboard" />;
}
