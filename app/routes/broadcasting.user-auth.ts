import { apiError } from "~/modules/api/api.server";
import { authenticateUserRequest } from "~/modules/notifications/channel-auth.server";
import type { Route } from "./+types/broadcasting.user-auth";

/** User sign-in on the socket (pusher:signin), for laravel-echo's user authentication. */
export async function action({ request, context }: Route.ActionArgs) {
  return authenticateUserRequest(request, context);
}

export function loader() {
  throw apiError(405, "Method not allowed.");
}
