import { describe, expect, it } from "vitest";
import { pageHref, pageItems, pageRange } from "./pagination";

describe("pagination", () => {
  it("lists the first, last and neighbouring pages, with gaps", () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(1, 10)).toEqual([1, 2, "gap", 10]);
    expect(pageItems(5, 10)).toEqual([1, "gap", 4, 5, 6, "gap", 10]);
    // A gap of exactly one page shows that page.
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, "gap", 10]);
    expect(pageItems(10, 10)).toEqual([1, "gap", 9, 10]);
  });

  it("gives the range shown on a page", () => {
    expect(pageRange(1, 25, 0)).toEqual({ from: 0, to: 0 });
    expect(pageRange(1, 25, 30)).toEqual({ from: 1, to: 25 });
    expect(pageRange(2, 25, 30)).toEqual({ from: 26, to: 30 });
  });

  it("links to a page keeping the search and filters; page 1 drops the parameter", () => {
    expect(pageHref("?q=ada&status=active&page=3", 4)).toEqual({ search: "?q=ada&status=active&page=4" });
    expect(pageHref("?q=ada&page=3", 1)).toEqual({ search: "?q=ada" });
    expect(pageHref("", 1)).toEqual({ search: "" });
  });
});
