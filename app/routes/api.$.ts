import { apiError } from "~/modules/api/api.server";

/** Unknown API paths answer JSON, never the HTML Not Found page. */
export function loader() {
  throw apiError(404, "Not found.");
}

export function action() {
  throw apiError(404, "Not found.");
}
