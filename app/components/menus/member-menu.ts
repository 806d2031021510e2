import type { DashboardProfiles } from "~/modules/members/member-area.server";
import type { MenuGroup } from "./menu-types";

/** The member menu exactly as the product specification lists it, with its conditions. */
export function memberMenu(input: { memberId: number; profiles: DashboardProfiles; postProductionJobsCount: number }): MenuGroup[] {
  const base = `/member/${input.memberId}`;
  const p = input.profiles;
  const providers = [
    p.musician && { label: "Musician Profile", to: `${base}/musician-profile/${p.musician.id}` },
    p.audio_engineer && { label: "Audio Engineer Profile", to: `${base}/audio-engineer-profile/${p.audio_engineer.id}` },
    p.studio && { label: "Studio Profile", to: `${base}/studio-profile/${p.studio.id}` },
    p.music_producer && { label: "Music Producer Profile", to: `${base}/music-producer-profile/${p.music_producer.id}` },
  ].filter((item): item is { label: string; to: string } => Boolean(item));

  const groups: MenuGroup[] = [
    {
      heading: "Menu",
      items: [
        { label: "Dashboard", to: `${base}/dashboard` },
        { label: "Account", to: `${base}/profile` },
        { label: "Release Music", to: `${base}/digital-distribution/start` },
        ...(p.owned_affiliate ? [{ label: "Affiliate", to: `${base}/affiliate/${p.owned_affiliate.id}` }] : []),
      ],
    },
    {
      heading: "Community",
      items: [
        { label: "Artist Pages", to: `${base}/artists` },
        { label: "Musician Pages", to: `${base}/musicians` },
        { label: "Audio Engineer Pages", to: `${base}/audio-engineers` },
        { label: "Music Producer Pages", to: `${base}/music-producers` },
        { label: "Studio Pages", to: `${base}/studios` },
      ],
    },
    {
      heading: "Financial",
      items: [
        { label: "Income & Shares", to: `${base}/member-income` },
        { label: "Payouts", to: `${base}/payouts-provider` },
        { label: "Royalty Payment Requests", to: `${base}/royalty-payment-requests` },
      ],
    },
    {
      heading: "Your Artists",
      // Owners and members with editing rights go to the edit page; other band members to the artist's page.
      items: p.artists.map((a) => ({
        label: a.name,
        to: a.can_edit ? `${base}/artist-profile/${a.id}` : `${base}/artists/${encodeURIComponent(a.username)}`,
      })),
    },
    { heading: "Your Provider Profiles", items: providers },
    {
      heading: "Catalog",
      items: [
        { label: "Releases", to: `${base}/releases` },
        { label: "Songs", to: `${base}/songs` },
      ],
    },
    {
      heading: "Work",
      items: [
        { label: "Projects", to: `${base}/projects` },
        { label: "Work Requests", to: `${base}/work-requests` },
        ...(input.postProductionJobsCount > 0 ? [{ label: "Post Production Jobs", to: `${base}/post-production-jobs` }] : []),
      ],
    },
    {
      heading: "Sales",
      items: [
        { label: "Digital Sales", to: `${base}/sales/digital` },
        { label: "License Royalties", to: `${base}/sales/license` },
        { label: "Pro Royalties", to: `${base}/sales/pro` },
      ],
    },
    {
      heading: "System",
      items: [
        { label: "Legal Terms", to: "/legal-terms" },
        { label: "Contact Us", to: `${base}/contact-us` },
        { label: "Logout", logout: true },
      ],
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}
