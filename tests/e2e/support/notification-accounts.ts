/**
 * Accounts for tests/e2e/notifications, created before the server starts by prepare-notifications.ts
 * (called from prepare.ts). Each belongs to exactly one test, so a test can count its own bell's badge:
 * nothing else sends these accounts a notification (tests announce to one member by email, never to all).
 * No app imports here: spec files import this.
 */
export const NOTIFY_PASSWORD = "notify-pass-123";

/** Members: verified, activated, agreed to every published document; named "Nora" / "Notify <key>". */
export const NOTIFY = {
  live: "notify-live@example.test",
  open: "notify-open@example.test",
  contactOpen: "notify-contact-open@example.test",
  deleteOne: "notify-delete-one@example.test",
  badId: "notify-bad-id@example.test",
  noJsClear: "notify-nojs-clear@example.test",
  noJsDelete: "notify-nojs-delete@example.test",
  noJsStale: "notify-nojs-stale@example.test",
  shared: "notify-shared@example.test",
  api: "notify-api@example.test",
  owner: "notify-owner@example.test",
  intruder: "notify-intruder@example.test",
  states: "notify-states@example.test",
  reconnect: "notify-reconnect@example.test",
} as const;
export type NotifyKey = keyof typeof NOTIFY;
export const notifyName = (key: NotifyKey) => ({ name: "Nora", lastName: `Notify ${key}`, fullname: `Nora Notify ${key}` });

/** A second administrator (account type admin, role Admin), for the administrators' shared list. */
export const NOTIFY_ADMIN = { email: "notify-admin-two@example.test", name: "Otto", lastName: "Second Admin" } as const;
