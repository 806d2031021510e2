import { env } from "~/env.server";
import { requireApiUser } from "~/modules/api/api.server";
import { readConfig } from "~/modules/config/config.server";
import { analyticsConfig, APP_VERSION } from "~/modules/config/public-config.server";
import type { Route } from "./+types/api.config";

/** The server config the client loads once: stored settings plus public app facts. */
export async function loader({ context }: Route.LoaderArgs) {
  await requireApiUser(context);
  const stored = await readConfig();
  return Response.json({
    data: {
      app_name: env().APP_NAME,
      app_version: APP_VERSION,
      currency: (stored.display_currency as string | undefined) ?? "USD",
      analytics: analyticsConfig(),
      settings: Object.fromEntries(Object.entries(stored).filter(([key]) => key !== "demo_seeded_at")),
    },
  });
}
