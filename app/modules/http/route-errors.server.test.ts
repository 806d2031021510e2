import { describe, expect, it } from "vitest";
import { notFound, routeError } from "./route-errors.server";

describe("routeError", () => {
  it("carries the standard status text, so single fetch never says 404 Internal Server Error", () => {
    expect(notFound()).toMatchObject({ init: { status: 404, statusText: "Not Found" }, data: null });
    expect(routeError(415, "Send a form.")).toMatchObject({
      init: { status: 415, statusText: "Unsupported Media Type" },
      data: { message: "Send a form." },
    });
    expect(routeError(599).init?.statusText).toBe("");
  });
});
