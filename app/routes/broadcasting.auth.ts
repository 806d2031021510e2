import { apiError } from "~/modules/api/api.server";
import { authorizeChannelRequest } from "~/modules/notifications/channel-auth.server";
import type { Route } from "./+types/broadcasting.auth";

/** Private channel authorisation for laravel-echo / pusher-js (form-encoded socket_id, channel_name). */
export async function action({ request, context }: Route.ActionArgs) {
  return authorizeChannelRequest(request, context);
}

export function loader() {
  throw apiError(405, "Method not allowed.");
}
