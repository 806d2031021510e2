import { redirect } from "react-router";
import { endSession } from "~/modules/accounts/session.server";
import type { Route } from "./+types/logout";

/** Logout is a POST only: a link or an image cannot log anyone out. */
export function loader() {
  return redirect("/login");
}

export async function action({ request }: Route.ActionArgs) {
  return endSession(request, "/login");
}
