import { Link } from "react-router";

export function NotFound({ homeHref = "/", homeLabel = "Go to the start page" }: { homeHref?: string; homeLabel?: string }) {
  return (
    <div className="mx-auto max-w-lg px-4 py-16 text-center">
      <p className="text-sm font-semibold text-brand-800">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Not Found</h1>
      <p className="mt-4 text-stone-600">The page you are looking for does not exist or has moved.</p>
      <Link to={homeHref} className="mt-8 inline-block font-semibold text-brand-800 underline">
        {homeLabel}
      </Link>
    </div>
  );
}
