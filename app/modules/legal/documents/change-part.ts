/** One run of a word diff between two versions' text (document-changes.server.ts makes them). */
export type ChangePart = { kind: "same" | "added" | "removed"; text: string };
