import { pageCountFor } from "~/db/list-queries";

/** What the managers and venues services share. */

export const INDUSTRY_PAGE_SIZE = 25;

/** The id is not a manager (or venue): the page answers 404. */
export class IndustryNotFoundError extends Error {
  constructor(what: "manager" | "venue") {
    super(`There is no such ${what}.`);
  }
}

export interface IndustryPage<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

export function pageOf<T>(rows: T[], total: number, page: number, pageSize: number): IndustryPage<T> {
  return { rows, total, page, pageSize, pageCount: pageCountFor(total, pageSize) };
}

/** An optional text column: stored as "" when empty (the columns are NOT NULL DEFAULT ''). */
export const text = (value: string | undefined | null) => value?.trim() ?? "";
