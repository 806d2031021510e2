import type { MenuGroup } from "./menu-types";

/** The admin menu exactly as the product specification lists it. */
export function adminMenu(): MenuGroup[] {
  const a = (path: string) => `/admin/${path}`;
  return [
    {
      heading: "Menu",
      items: [
        { label: "Dashboard", to: a("dashboard") },
        { label: "Members", to: a("members") },
        { label: "Releases", to: a("releases") },
        { label: "Songs", to: a("songs") },
        { label: "Work Requests", to: a("work-requests") },
        { label: "Projects", to: a("projects") },
        { label: "Affiliates", to: a("affiliates") },
        { label: "Post Production Jobs", to: a("post-production-jobs") },
      ],
    },
    {
      heading: "Profiles",
      items: [
        { label: "Artists", to: a("artists/profiles") },
        { label: "Music Producers", to: a("music-producers/profiles") },
        { label: "Musicians", to: a("musicians/profiles") },
        { label: "Audio Engineers", to: a("audio-engineers/profiles") },
        { label: "Studios", to: a("studios/profiles") },
      ],
    },
    {
      heading: "Sales",
      items: [
        { label: "Digital", to: a("sales/digital") },
        { label: "PRO Royalties", to: a("sales/pro") },
        { label: "License Royalties", to: a("sales/license") },
        { label: "Upload Sales", to: a("upload-sales") },
      ],
    },
    {
      heading: "Community",
      items: [
        { label: "Artist Pages", to: a("artists") },
        { label: "Music Producer Pages", to: a("music-producers") },
        { label: "Musician Pages", to: a("musicians") },
        { label: "Audio Engineer Pages", to: a("audio-engineers") },
        { label: "Studio Pages", to: a("studios") },
      ],
    },
    {
      heading: "Finance",
      items: [
        { label: "Royalty Payment Requests", to: a("royalty-payment-requests") },
        { label: "Transactions", to: a("transactions") },
        { label: "Payment Accounts", to: a("payment-accounts") },
      ],
    },
    {
      heading: "Legal",
      items: [
        { label: "Documents", to: a("documents") },
        { label: "Signatures", to: a("signatures") },
      ],
    },
    {
      heading: "Resources",
      items: [
        { label: "Genres", to: a("genres") },
        { label: "Instruments", to: a("instruments") },
        { label: "Skills", to: a("skills") },
        { label: "PROs", to: a("pros") },
      ],
    },
    { heading: "Account", items: [{ label: "Logout", logout: true }] },
  ];
}
