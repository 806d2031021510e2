/**
 * Accounts and provider profiles for tests/e2e/marketplace/work-requests.spec.ts, created before the server
 * starts by prepare-work-requests.ts. Each test owns its client and provider, so tests never share state.
 * No app imports here: spec files import this.
 */
export const WORK_REQUEST_PASSWORD = "work-request-pass-123";

export const WORK_REQUEST_SCENARIOS = {
  /** The whole flow with JavaScript: request → estimate → revision → revised → accepted. */
  flow: {
    type: "audio_engineer",
    directory: "audio-engineers",
    profileName: "WR Flow Engineer",
    username: "wr-flow-engineer",
    song: "Flow Song",
  },
  /** Bad input on the request and estimate forms. */
  invalid: {
    type: "musician",
    directory: "musicians",
    profileName: "WR Invalid Musician",
    username: "wr-invalid-musician",
    song: null,
  },
  /** The request, the estimate and the acceptance without JavaScript. */
  nojs: {
    type: "studio",
    directory: "studios",
    profileName: "WR Plain Studio",
    username: "wr-plain-studio",
    song: null,
  },
} as const;
export type WorkRequestScenario = keyof typeof WORK_REQUEST_SCENARIOS;

export const wrClient = (key: WorkRequestScenario) => `wr-${key}-client@example.test`;
export const wrProvider = (key: WorkRequestScenario) => `wr-${key}-provider@example.test`;
/** Party to nothing: the others' requests and estimates answer 404. */
export const WR_STRANGER = "wr-stranger@example.test";
/** Sees every request in /admin/work-requests. */
export const WR_ADMIN = "wr-admin@example.test";
