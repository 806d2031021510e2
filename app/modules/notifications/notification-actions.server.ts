import { redirect } from "react-router";
import { redirectTarget } from "~/modules/security/redirect-target";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { pathForRoute } from "~/route-names";
import { socketIdOf } from "./broadcaster.server";
import type { NotificationView, SendOptions } from "./notifications.server";
import { readForm } from "~/modules/security/form-body.server";

export const NOTIFICATION_ERROR = "Error processing your request";

/** One list's deletions: the member's own, or the administrators' shared one. */
export interface NotificationStore {
  deleteOne(id: string, options: SendOptions): Promise<NotificationView | null>;
  deleteAll(options: SendOptions): Promise<number>;
  /** The member id that `:memberId` in a notification's route means for this reader. */
  memberId: number;
}

/**
 * The bell's form actions, the same with or without JavaScript: `open` deletes the notification and
 * goes to the route it names, `delete` deletes only it, `clear` deletes them all; each then returns to
 * the page it came from. A failure comes back as the flash 'Error processing your request'.
 */
export async function handleNotificationAction(request: Request, store: NotificationStore): Promise<Response> {
  const form = await readForm(request);
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  const back = redirectTarget(form.get("redirectTo"), "/");
  const options = { socketId: socketIdOf(request) };
  const fail = () => redirectWithFlash(back, { kind: "error", message: NOTIFICATION_ERROR });

  if (intent === "clear") {
    await store.deleteAll(options);
    return redirect(back);
  }
  if (intent !== "open" && intent !== "delete") return fail();
  const deleted = await store.deleteOne(id, options);
  if (!deleted) return fail();
  if (intent === "delete") return redirect(back);
  const target = pathForRoute(deleted.data.route_name, {
    memberId: store.memberId,
    id: deleted.data.resource_id,
    hash: deleted.data.route_hash,
  });
  return redirect(target ?? back);
}
