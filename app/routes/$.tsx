import { data } from "react-router";
import { NotFound } from "~/components/not-found";
import { pageTitle } from "~/components/page-title";
import type { Route } from "./+types/$";

export const handle = { routeName: "not-found" };

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Not Found");

export default function NotFoundRoute() {
  return <NotFound />;
}
