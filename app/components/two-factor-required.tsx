import { Link } from "react-router";

/**
 * The notice an administrator sees on a page whose money-moving decisions need two-factor authentication
 * on their account (decision 019), with the way to turn it on. The server refuses those
 * decisions all the same; this says so before anyone tries.
 */
export function TwoFactorRequired({ message, accountPath }: { message: string; accountPath: string }) {
  return (
    <div role="alert" data-testid="two-factor-required" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      {message}{" "}
      <Link to={accountPath} className="font-semibold underline">
        Turn on two-factor authentication
      </Link>
    </div>
  );
}
