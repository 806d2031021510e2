import { Form, Link, NavLink, useActionData, useLocation } from "react-router";
import { Count, Money } from "~/components/formatting";
import { ListEmptyState } from "~/components/list-empty-state";
import { Pagination } from "~/components/pagination";
import { StatusTag } from "~/components/status-tag";
import { CreateProfileForm } from "./create-profile-form";
import { DIRECTORY_SORT_LABELS, DIRECTORY_TEXT_MAX, isFiltered } from "./directory-query";
import type { DirectoryCard } from "./directory.server";
import type { DirectoryPageData, OwnProfiles } from "./directory-route.server";
import { PROFILE_STATUS_LABELS, PROFILE_TYPE_INFO, profilePaths, RATE_UNIT_LABELS } from "./profile-types";
import { inputClass } from "~/components/forms";

/**
 * Every community directory (member and admin, one type or the DJ/Songwriter lists): the filter form
 * (GET, so it works without JavaScript and the URL can be shared), the result count, the cards,
 * pagination, empty states, and in the member area the "Your profile" box.
 */

/** The admin community lists: the five page lists, then DJs, Songwriters, Managers and Venues. */
const ADMIN_COMMUNITY_LINKS = [
  { label: "Artist Pages", to: "/admin/artists" },
  { label: "Musician Pages", to: "/admin/musicians" },
  { label: "Audio Engineer Pages", to: "/admin/audio-engineers" },
  { label: "Music Producer Pages", to: "/admin/music-producers" },
  { label: "Studio Pages", to: "/admin/studios" },
  { label: "DJs", to: "/admin/djs" },
  { label: "Songwriters", to: "/admin/songwriters" },
  { label: "Managers", to: "/admin/managers" },
  { label: "Venues", to: "/admin/venues" },
];

export function AdminCommunityNav() {
  return (
    <nav aria-label="Community lists" className="-mx-1 overflow-x-auto">
      <ul className="flex gap-1 px-1 pb-1 text-sm whitespace-nowrap">
        {ADMIN_COMMUNITY_LINKS.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end
              className={({ isActive }) =>
                `inline-flex rounded-md px-3 py-1.5 font-medium ${isActive ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function nounFor(data: DirectoryPageData): [string, string] {
  if (!data.type) return ["profile", "profiles"];
  const info = PROFILE_TYPE_INFO[data.type];
  return info.provider ? [info.label.toLowerCase(), info.plural.toLowerCase()] : ["artist page", "artist pages"];
}

export function DirectoryPage({ data }: { data: DirectoryPageData }) {
  const filtered = isFiltered(data.query);
  const noun = nounFor(data);
  const { list } = data;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      {data.adminNav ? <AdminCommunityNav /> : null}
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{data.heading}</h1>
        <p className="mt-1 text-sm text-stone-600">{data.intro}</p>
      </div>

      {data.own && data.type && data.memberId !== null ? <OwnProfileBox own={data.own} type={data.type} memberId={data.memberId} /> : null}

      <section aria-labelledby="directory-results-heading" className="space-y-4">
        <h2 id="directory-results-heading" className="sr-only">
          {data.heading}: results
        </h2>
        <FilterForm data={data} filtered={filtered} />
        <p className="text-sm font-medium text-stone-800" role="status">
          <Count value={list.total} /> {list.total === 1 ? noun[0] : noun[1]}
          {filtered ? " match the search" : ""}
        </p>
        {list.cards.length ? (
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {list.cards.map((card) => (
              <li key={card.id} className="flex">
                <ProfileCard card={card} data={data} />
              </li>
            ))}
          </ul>
        ) : (
          <div className="rounded-lg border border-dashed border-stone-300 bg-white px-4 py-10 text-center">
            <ListEmptyState
              total={data.list.total}
              pageCount={data.list.pageCount}
              filtered={filtered}
              noMatch={`No ${noun[1]} match this search.`}
              noMatchHint="Try fewer filters or another name"
              empty={`No published ${noun[1]} yet.`}
              emptyHint={data.area === "member" ? "They appear here once an administrator approves them." : "Profiles appear here once they are approved."}
            />
          </div>
        )}
        <Pagination page={list.page} pageCount={list.pageCount} total={list.total} pageSize={list.pageSize} noun={noun} label={`${data.heading} pages`} />
      </section>
    </div>
  );
}

function FilterForm({ data, filtered }: { data: DirectoryPageData; filtered: boolean }) {
  const location = useLocation();
  const { query } = data;
  return (
    <Form
      method="get"
      role="search"
      aria-label={`Search ${data.heading}`}
      // Re-mounted on each search so the fields always show what the URL says (after "Clear filters" too).
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-4"
    >
      <div className="sm:col-span-2">
        <label htmlFor="directory-q" className="block text-sm font-medium text-stone-800">
          Search by name or username
        </label>
        <input id="directory-q" type="search" name="q" defaultValue={query.q} maxLength={DIRECTORY_TEXT_MAX} className={inputClass} />
      </div>
      <div className="sm:col-span-2 lg:col-span-1">
        <label htmlFor="directory-location" className="block text-sm font-medium text-stone-800">
          Location
        </label>
        <input
          id="directory-location"
          type="search"
          name="location"
          defaultValue={query.location}
          maxLength={DIRECTORY_TEXT_MAX}
          placeholder="City or country"
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="directory-sort" className="block text-sm font-medium text-stone-800">
          Sort by
        </label>
        <select id="directory-sort" name="sort" defaultValue={query.sort} className={inputClass}>
          {data.sorts.map((sort) => (
            <option key={sort} value={sort}>
              {DIRECTORY_SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
      {data.filters.map((filter) => (
        <div key={filter.kind}>
          <label htmlFor={`directory-${filter.kind}`} className="block text-sm font-medium text-stone-800">
            {filter.label}
          </label>
          <select id={`directory-${filter.kind}`} name={filter.kind} defaultValue={query.filters[filter.kind] ?? ""} className={inputClass}>
            <option value="">Any {filter.label.toLowerCase()}</option>
            {filter.options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.name}
              </option>
            ))}
          </select>
        </div>
      ))}
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1 lg:col-start-4">
        <button
          type="submit"
          className="inline-flex flex-1 items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800"
        >
          Search
        </button>
        {filtered || query.sort !== "name" ? (
          <Link
            to={location.pathname}
            className="inline-flex items-center justify-center rounded-md px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100"
          >
            Clear filters
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

function ProfileCard({ card, data }: { card: DirectoryCard; data: DirectoryPageData }) {
  const info = PROFILE_TYPE_INFO[card.type];
  const paths = profilePaths(card.type, data.area, data.memberId ?? undefined);
  const href = paths.publicPage(card.username);
  const headingId = `profile-card-${card.id}`;
  return (
    <article aria-labelledby={headingId} className="flex w-full flex-col overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
      <div className="aspect-[364/205] bg-stone-100">
        {card.image?.kind === "hero" ? (
          <img
            src={card.image.src}
            srcSet={card.image.srcSet ?? undefined}
            sizes="(min-width: 1024px) 364px, (min-width: 640px) 50vw, 100vw"
            width={364}
            height={205}
            alt=""
            loading="lazy"
            decoding="async"
            className="size-full object-cover"
          />
        ) : card.image?.kind === "avatar" ? (
          <div className="flex size-full items-center justify-center">
            <img src={card.image.src} width={96} height={96} alt="" loading="lazy" className="size-24 rounded-full object-cover ring-4 ring-white" />
          </div>
        ) : (
          <div aria-hidden="true" className="flex size-full items-center justify-center text-4xl font-semibold text-stone-400">
            {card.name.slice(0, 1).toUpperCase()}
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        {data.type === null ? <p className="text-xs font-semibold tracking-wide text-brand-800 uppercase">{info.label}</p> : null}
        <h3 id={headingId} className="text-base font-semibold text-stone-900">
          <Link to={href} className="underline-offset-2 hover:underline focus-visible:underline">
            {card.name}
          </Link>
        </h3>
        <p className="text-sm text-stone-600">
          <span className="sr-only">Username: </span>@{card.username}
          {card.location ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, location: </span>
              {card.location}
            </>
          ) : null}
        </p>
        {card.genres.length ? (
          <ul aria-label="Genres" className="flex flex-wrap gap-1.5">
            {card.genres.map((genre) => (
              <li key={genre} className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">
                {genre}
              </li>
            ))}
            {card.moreGenres ? <li className="px-1 py-0.5 text-xs text-stone-500">+{card.moreGenres} more</li> : null}
          </ul>
        ) : null}
        {card.lowestRate ? (
          <p className="mt-auto pt-1 text-sm text-stone-800">
            from{" "}
            <span className="font-semibold">
              <Money cents={card.lowestRate.amountCents} currency={card.lowestRate.currency} />
            </span>{" "}
            {RATE_UNIT_LABELS[card.lowestRate.unit]}
          </p>
        ) : null}
        {data.area === "admin" ? (
          <p className="pt-1 text-sm">
            <Link to={paths.ownerPage(card.id)} className="font-medium text-brand-800 underline">
              Manage<span className="sr-only"> {card.name}</span>
            </Link>
          </p>
        ) : null}
      </div>
    </article>
  );
}

function OwnProfileBox({ own, type, memberId }: { own: OwnProfiles; type: NonNullable<DirectoryPageData["type"]>; memberId: number }) {
  const actionData = useActionData<{ form?: string; result?: unknown }>();
  const lastResult = actionData?.form === "create-profile" ? actionData.result : undefined;
  const info = PROFILE_TYPE_INFO[type];
  const paths = profilePaths(type, "member", memberId);
  const box = "rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5";

  if (!own.provider) {
    return (
      <section aria-labelledby="own-profile-heading" className={`${box} space-y-4`}>
        <h2 id="own-profile-heading" className="text-base font-semibold text-stone-900">
          Your artist pages
        </h2>
        {own.artists.length ? (
          <ul className="divide-y divide-stone-100">
            {own.artists.map((artist) => (
              <li key={artist.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <Link to={paths.ownerPage(artist.id)} className="font-medium text-brand-900 underline-offset-2 hover:underline">
                  {artist.name}
                </Link>
                <StatusTag status={artist.status} label={PROFILE_STATUS_LABELS[artist.status]} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-stone-600">You have no artist page yet. Create one for yourself or your band.</p>
        )}
        <details open={lastResult ? true : undefined} className="rounded-md border border-stone-200">
          <summary className="cursor-pointer px-3 py-2 text-sm font-semibold text-brand-900">Create an artist page</summary>
          <div className="border-t border-stone-200 p-3">
            <CreateProfileForm type="artist" lastResult={lastResult} />
          </div>
        </details>
      </section>
    );
  }

  const label = info.label.toLowerCase();
  return (
    <section aria-labelledby="own-profile-heading" className={`${box} space-y-3`}>
      <h2 id="own-profile-heading" className="text-base font-semibold text-stone-900">
        Your {label} profile
      </h2>
      {own.profile ? (
        <p className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
          <Link to={paths.ownerPage(own.profile.id)} className="font-medium text-brand-900 underline">
            {own.profile.name}
          </Link>
          <StatusTag status={own.profile.status} label={PROFILE_STATUS_LABELS[own.profile.status]} />
        </p>
      ) : (
        <>
          <p className="text-sm text-stone-600">
            Offer your work as a {label}: create your profile, add your rates and samples, then ask for it to be published.
          </p>
          <CreateProfileForm type={type} lastResult={lastResult} />
        </>
      )}
    </section>
  );
}
