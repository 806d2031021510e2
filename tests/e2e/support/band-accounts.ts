/**
 * Accounts and artist pages for tests/e2e/community/band.spec.ts, created before the server starts by
 * prepare-band.ts (called from prepare.ts). Each test owns its artist and accounts, so tests never share
 * state and may run in any order. No app imports here: spec files import this.
 */
export const BAND_PASSWORD = "band-pass-123";

/** Members: verified, activated, agreed to every published document. */
export const BAND = {
  /** Owns `existing`; invites `invitee`, withdraws their rights and removes them. */
  owner: "band-owner@example.test",
  /** Has an account: logs in from the invitation and accepts. */
  invitee: "band-invitee@example.test",
  /** Owns `newcomer`; invites an address without an account. */
  newOwner: "band-new-owner@example.test",
  /** Owns `revoke`; revokes an invitation. */
  revokeOwner: "band-revoke-owner@example.test",
  /** Owns `rights`, whose band has `editor` (may edit) and `plain` (may not). */
  rightsOwner: "band-rights-owner@example.test",
  editor: "band-editor@example.test",
  plain: "band-plain@example.test",
  /** Owns `leave`, whose band has `leaver` (may edit), who leaves. */
  leaveOwner: "band-leave-owner@example.test",
  leaver: "band-leaver@example.test",
} as const;
export type BandKey = keyof typeof BAND;

export const bandName = (key: BandKey) => ({ name: "Bea", lastName: `Band ${key}`, fullname: `Bea Band ${key}` });

/** Artist pages (published), each owned by one account above, with the other members listed. */
export const BAND_ARTISTS = {
  existing: { name: "E2E Owls Existing", username: "e2e-band-existing", owner: "owner", members: [] },
  newcomer: { name: "E2E Owls Newcomer", username: "e2e-band-newcomer", owner: "newOwner", members: [] },
  revoke: { name: "E2E Owls Revoke", username: "e2e-band-revoke", owner: "revokeOwner", members: [] },
  rights: {
    name: "E2E Owls Rights",
    username: "e2e-band-rights",
    owner: "rightsOwner",
    members: [
      { key: "editor", canEdit: true },
      { key: "plain", canEdit: false },
    ],
  },
  leave: { name: "E2E Owls Leave", username: "e2e-band-leave", owner: "leaveOwner", members: [{ key: "leaver", canEdit: true }] },
} as const satisfies Record<string, { name: string; username: string; owner: BandKey; members: ReadonlyArray<{ key: BandKey; canEdit: boolean }> }>;
