import { redirect } from "react-router";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/admin._index";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return redirect("/admin/dashboard");
}
