import { STATUS_CODES } from "node:http";
import { data } from "react-router";

/**
 * The one way a loader or action refuses: `throw routeError(status, message?)`. The error page
 * (app/components/error-page.tsx) shows the message. The status text is set explicitly because React
 * Router gives a thrown `data()` without one the text "Internal Server Error" whatever its status, and
 * that text travels in single-fetch (`.data`) answers and the page's hydration data.
 */
export function routeError(status: number, message?: string) {
  return data(message === undefined ? null : { message }, { status, statusText: STATUS_CODES[status] ?? "" });
}

/** Thrown to show the area's Not Found page with status 404. */
export function notFound() {
  return routeError(404);
}
