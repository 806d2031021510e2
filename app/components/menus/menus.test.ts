import { describe, expect, it } from "vitest";
import type { DashboardProfiles } from "~/modules/members/member-area.server";
import { adminMenu } from "./admin-menu";
import { memberMenu } from "./member-menu";

const none: DashboardProfiles = {
  owned_affiliate: null,
  artists: [],
  musician: null,
  audio_engineer: null,
  studio: null,
  music_producer: null,
};

const headings = (groups: ReturnType<typeof memberMenu>) => groups.map((g) => g.heading);
const labels = (groups: ReturnType<typeof memberMenu>, heading: string) => groups.find((g) => g.heading === heading)?.items.map((i) => i.label) ?? [];

describe("member menu", () => {
  it("for a member with nothing yet: no Affiliate, no Your Artists or Provider Profiles, no Post Production Jobs", () => {
    const menu = memberMenu({ memberId: 7, profiles: none, postProductionJobsCount: 0 });
    expect(headings(menu)).toEqual(["Menu", "Community", "Financial", "Catalog", "Work", "Sales", "System"]);
    expect(labels(menu, "Menu")).toEqual(["Dashboard", "Account", "Release Music"]);
    expect(labels(menu, "Work")).toEqual(["Projects", "Work Requests"]);
    expect(labels(menu, "System")).toEqual(["Legal Terms", "Contact Us", "Logout"]);
    expect(labels(menu, "Sales")).toEqual(["Digital Sales", "License Royalties", "Pro Royalties"]);
    expect(labels(menu, "Financial")).toEqual(["Income & Shares", "Payouts", "Royalty Payment Requests"]);
  });

  it("with an affiliate, artists, provider profiles and post-production jobs", () => {
    const menu = memberMenu({
      memberId: 7,
      profiles: {
        owned_affiliate: { id: 3 },
        artists: [
          { id: 11, name: "The Night Owls", username: "night-owls", can_edit: true },
          { id: 12, name: "Solo Act", username: "solo-act", can_edit: false },
        ],
        musician: { id: 21 },
        audio_engineer: null,
        studio: { id: 23 },
        music_producer: null,
      },
      postProductionJobsCount: 2,
    });
    expect(headings(menu)).toEqual(["Menu", "Community", "Financial", "Your Artists", "Your Provider Profiles", "Catalog", "Work", "Sales", "System"]);
    const top = menu[0]!.items;
    expect(top.at(-1)).toEqual({ label: "Affiliate", to: "/member/7/affiliate/3" });
    expect(menu.find((g) => g.heading === "Your Artists")!.items).toEqual([
      { label: "The Night Owls", to: "/member/7/artist-profile/11" },
      // A band member without editing rights is taken to the artist's page, not to the edit page (404 for them).
      { label: "Solo Act", to: "/member/7/artists/solo-act" },
    ]);
    expect(menu.find((g) => g.heading === "Your Provider Profiles")!.items).toEqual([
      { label: "Musician Profile", to: "/member/7/musician-profile/21" },
      { label: "Studio Profile", to: "/member/7/studio-profile/23" },
    ]);
    expect(labels(menu, "Work")).toEqual(["Projects", "Work Requests", "Post Production Jobs"]);
  });
});

describe("admin menu", () => {
  it("has the spec's groups in order", () => {
    expect(adminMenu().map((g) => g.heading)).toEqual(["Menu", "Profiles", "Sales", "Community", "Finance", "Legal", "Resources", "Account"]);
    expect(adminMenu()[0]!.items.map((i) => i.label)).toEqual([
      "Dashboard",
      "Members",
      "Releases",
      "Songs",
      "Work Requests",
      "Projects",
      "Affiliates",
      "Post Production Jobs",
    ]);
    expect(
      adminMenu()
        .find((g) => g.heading === "Resources")!
        .items.map((i) => i.label),
    ).toEqual(["Genres", "Instruments", "Skills", "PROs"]);
  });
});
