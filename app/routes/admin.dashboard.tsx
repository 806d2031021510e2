import type { ShouldRevalidateFunction } from "react-router";
import { Link } from "react-router";
import { BarChart, ChartCard, EmptyState, LineChart, PieChart, StatCard } from "~/components/charts";
import { Count, Money } from "~/components/formatting";
import { pageTitle } from "~/components/page-title";
import { reuseUnlessChanged } from "~/components/revalidation";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { roleName } from "~/modules/accounts/roles";
import { systemFinancialSummary, systemProfilesSummary } from "~/modules/dashboard/admin-dashboard.server";
import { PROFILE_TYPE_INFO, PROFILE_TYPES, profilePaths } from "~/modules/profiles/profile-types";
import type { Route } from "./+types/admin.dashboard";

export const handle = { routeName: "admin-dashboard" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Dashboard");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  const [financial, profiles] = await Promise.all([systemFinancialSummary(), systemProfilesSummary()]);
  return { financial, profiles };
}

// The admin summaries are fetched once per visit and reused.
export const shouldRevalidate: ShouldRevalidateFunction = (args) => reuseUnlessChanged(args);

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { financial, profiles } = loaderData;
  const people = profiles.members + profiles.admins;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
        <div className="flex gap-2 text-sm">
          <Link to="/admin/announcements" className="rounded-md border border-stone-300 bg-white px-3 py-1.5 font-medium hover:bg-stone-50">
            Send an announcement
          </Link>
          <Link to="/admin/versions" className="rounded-md border border-stone-300 bg-white px-3 py-1.5 font-medium hover:bg-stone-50">
            App versions
          </Link>
        </div>
      </div>

      <section aria-labelledby="finance-heading" className="space-y-3">
        <h2 id="finance-heading" className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
          Finance
        </h2>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard label="Imported" value={<Money cents={financial.income_cents} currency={financial.currency} />} hint="Every statement line posted" />
          <StatCard label="Commission earned" value={<Money cents={financial.commission_cents} currency={financial.currency} />} />
          <StatCard
            label="In suspense"
            value={<Money cents={financial.suspense_cents} currency={financial.currency} />}
            hint={
              <Link to="/admin/upload-sales" className="text-brand-800 underline">
                Unmatched lines: match them on their import
              </Link>
            }
          />
          <StatCard label="Held for pending parties" value={<Money cents={financial.held_cents} currency={financial.currency} />} />
          <StatCard
            label="Owed to members"
            value={<Money cents={financial.owed_to_members_cents} currency={financial.currency} />}
            hint={
              <>
                <Count value={financial.members_with_balance} /> with a balance
              </>
            }
          />
          <StatCard
            label="Pending payouts"
            value={<Money cents={financial.pending_payouts_cents} currency={financial.currency} />}
            hint={
              <Link to="/admin/royalty-payment-requests" className="text-brand-800 underline">
                <Count value={financial.pending_payout_requests} /> {financial.pending_payout_requests === 1 ? "request" : "requests"} waiting
              </Link>
            }
          />
          <StatCard label="Paid out" value={<Money cents={financial.paid_out_cents} currency={financial.currency} />} />
          <StatCard
            label="Marketplace escrow"
            value={<Money cents={financial.escrow_cents} currency={financial.currency} />}
            hint={
              <>
                Held for projects; <Money cents={financial.marketplace_received_cents} currency={financial.currency} /> received from clients in all
              </>
            }
          />
          <StatCard
            label="Journal"
            value={
              <Link to="/admin/transactions" className="text-base font-medium text-brand-800 underline">
                Transactions
              </Link>
            }
            hint="Every entry and its postings"
          />
        </div>
        {financial.income_cents === 0 ? <p className="text-sm text-stone-500">No money has moved yet: upload sales to start the ledger.</p> : null}
      </section>

      <section aria-labelledby="catalogue-heading" className="space-y-3">
        <h2 id="catalogue-heading" className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
          Catalogue
        </h2>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <StatCard
            label="Releases awaiting review"
            value={<Count value={profiles.releases_pending_review} />}
            hint={
              <Link to="/admin/releases?status=pending_approval" className="text-brand-800 underline">
                {profiles.releases_pending_review === 0 ? "All releases" : "Review them"}
              </Link>
            }
          />
        </div>
      </section>

      <section aria-labelledby="people-heading" className="space-y-3">
        <h2 id="people-heading" className="text-sm font-semibold tracking-wide text-stone-500 uppercase">
          People
        </h2>
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
          <StatCard label="Members" value={<Count value={profiles.members} />} />
          <StatCard label="Administrators" value={<Count value={profiles.admins} />} />
          <StatCard label="Awaiting email verification" value={<Count value={profiles.unverified} />} />
          <StatCard label="Awaiting activation" value={<Count value={profiles.pending_activation} />} />
          <StatCard label="Suspended" value={<Count value={profiles.suspended} />} />
        </div>
      </section>

      <div className="grid gap-4 xl:grid-cols-2">
        <ChartCard title="New accounts" description="Sign-ups per month, last 12 months">
          <LineChart label="New accounts per month" format="count" points={profiles.signups_by_month.map((m) => ({ x: m.month, y: m.count }))} />
        </ChartCard>
        <ChartCard
          title="Email verification"
          description={
            <>
              <Count value={people} /> accounts
            </>
          }
        >
          {people === 0 ? (
            <EmptyState title="No accounts yet" />
          ) : (
            <PieChart
              label="Accounts by verification status"
              format="count"
              slices={[
                { id: "verified", label: "Verified", value: profiles.verified },
                { id: "unverified", label: "Unverified", value: profiles.unverified },
                { id: "pending", label: "Pending activation", value: profiles.pending_activation },
              ].filter((s) => s.value > 0)}
            />
          )}
        </ChartCard>
        <ChartCard title="Accounts by role">
          <BarChart label="Accounts by role" format="count" bars={profiles.by_role.map((r) => ({ label: roleName(r.role_id), value: r.count }))} />
        </ChartCard>
        <ChartCard title="Community">
          {profiles.artists + profiles.provider_profiles === 0 ? (
            <EmptyState title="No artist pages or provider profiles yet">Members create them from their area; they will be counted here.</EmptyState>
          ) : (
            <div className="space-y-3">
              <div className="grid grid-cols-2 gap-3">
                <StatCard label="Artist pages" value={<Count value={profiles.artists} />} />
                <StatCard label="Provider profiles" value={<Count value={profiles.provider_profiles} />} />
              </div>
              <p className="text-sm text-stone-700">
                {profiles.profiles_pending_approval === 0 ? (
                  "No profile is waiting for approval."
                ) : (
                  <>
                    <strong className="font-semibold">
                      <Count value={profiles.profiles_pending_approval} />
                    </strong>{" "}
                    {profiles.profiles_pending_approval === 1 ? "profile is" : "profiles are"} waiting for approval: see{" "}
                    {PROFILE_TYPES.map((type, i) => (
                      <span key={type}>
                        {i > 0 ? ", " : ""}
                        <Link to={profilePaths(type, "admin").moderation} className="font-medium text-brand-800 underline">
                          {PROFILE_TYPE_INFO[type].plural}
                        </Link>
                      </span>
                    ))}
                    .
                  </>
                )}
              </p>
            </div>
          )}
        </ChartCard>
      </div>
    </div>
  );
}
