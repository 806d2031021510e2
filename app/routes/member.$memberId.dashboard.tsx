import type { ShouldRevalidateFunction } from "react-router";
import { Link } from "react-router";
import { ChartCard, EmptyState, LineChart, StatCard } from "~/components/charts";
import { Count, DateTime, Money } from "~/components/formatting";
import { pageTitle } from "~/components/page-title";
import { reuseUnlessChanged } from "~/components/revalidation";
import { memberDashboardOverview } from "~/modules/dashboard/member-dashboard.server";
import { RecentWork } from "~/modules/dashboard/recent-work";
import { memberOfArea, memberProfilesFor } from "~/modules/members/member-area.server";
import { getOptionalUser } from "~/modules/accounts/current-user.server";
import { CreditTasks } from "~/modules/catalog/credits/credit-tasks";
import { pendingCreditTasks } from "~/modules/catalog/credits/credits.server";
import { SplitTasks } from "~/modules/splits/shares-section";
import { pendingSplitTasks } from "~/modules/splits/split-sheet.server";
import type { Route } from "./+types/member.$memberId.dashboard";
import { notFound } from "~/modules/http/route-errors.server";

export const handle = { routeName: "member-dashboard" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Dashboard");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = await memberOfArea(request, context, params.memberId);
  const memberId = member.id;
  const profiles = await memberProfilesFor(context, memberId);
  const [overview, splitTasks, creditTasks] = await Promise.all([
    memberDashboardOverview(memberId, profiles),
    pendingSplitTasks(member),
    // The invitation links are the addressee's own: an administrator viewing the area does not get them.
    getOptionalUser(context)?.id === member.id ? pendingCreditTasks(member) : [],
  ]);
  if (!overview) throw notFound();
  return { memberId, profiles, splitTasks, creditTasks, ...overview };
}

// Dashboard stats, profiles, projects and work requests are cached per member.
export const shouldRevalidate: ShouldRevalidateFunction = (args) => reuseUnlessChanged(args, "memberId");

export default function MemberDashboard({ loaderData }: Route.ComponentProps) {
  const { stats, memberId } = loaderData;
  const base = `/member/${memberId}`;
  const steps = [
    { done: stats.email_verified, label: "Verify your email address", to: `${base}/profile` },
    { done: stats.documents_agreed >= stats.documents_required, label: "Agree to the legal terms", to: "/legal-terms" },
    { done: stats.has_avatar, label: "Add a profile picture", to: `${base}/profile` },
    { done: stats.artists > 0, label: "Create your first artist page", to: `${base}/artists` },
    { done: stats.provider_profiles > 0, label: "Offer your services with a provider profile", to: `${base}/musicians` },
    { done: stats.releases_submitted > 0, label: "Release your music", to: `${base}/digital-distribution/start` },
  ];
  const remaining = steps.filter((s) => !s.done);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
        <p className="text-sm text-stone-500">
          Member since <DateTime iso={stats.member_since} />
        </p>
      </div>

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <StatCard
          label="Balance"
          value={
            <Link to={`${base}/member-income`} className="hover:underline">
              <Money cents={stats.balance_cents} currency={stats.currency} />
            </Link>
          }
          hint="Available to pay out"
        />
        <StatCard label="Artists" value={<Count value={stats.artists} />} />
        <StatCard label="Provider profiles" value={<Count value={stats.provider_profiles} />} />
        <StatCard
          label="Projects"
          value={
            <Link to={`${base}/projects`} className="hover:underline">
              <Count value={stats.projects} />
            </Link>
          }
          hint={
            <>
              <Count value={stats.projects_open} /> open
            </>
          }
        />
        <StatCard
          label="Work requests"
          value={
            <Link to={`${base}/work-requests`} className="hover:underline">
              <Count value={stats.work_requests} />
            </Link>
          }
          hint={
            <>
              <Count value={stats.work_requests_open} /> open
            </>
          }
        />
      </div>

      <SplitTasks memberId={memberId} tasks={loaderData.splitTasks} />
      <CreditTasks tasks={loaderData.creditTasks} />

      {remaining.length ? (
        <section aria-labelledby="getting-started" className="rounded-xl border border-brand-100 bg-brand-50 p-4">
          <h2 id="getting-started" className="font-semibold text-brand-900">
            Getting started
          </h2>
          <ol className="mt-2 space-y-1.5">
            {steps.map((step) => (
              <li key={step.label} className="flex items-center gap-2 text-sm">
                <span
                  aria-hidden="true"
                  className={`inline-flex size-5 items-center justify-center rounded-full text-xs ${step.done ? "bg-brand-800 text-white" : "border border-brand-700 text-brand-800"}`}
                >
                  {step.done ? "✓" : ""}
                </span>
                {step.done ? (
                  <span className="text-stone-500 line-through">
                    {step.label}
                    <span className="sr-only"> (done)</span>
                  </span>
                ) : (
                  <Link to={step.to} className="font-medium text-brand-900 underline">
                    {step.label}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </section>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="Income" description="Royalties and sales, month by month">
          {stats.income_by_month.length === 0 ? (
            <EmptyState title="No income yet">Release your music or join a project: your earnings will show here, every cent traced to its lines.</EmptyState>
          ) : (
            <>
              <LineChart label="Income per month, in dollars" format="cents" points={stats.income_by_month.map((m) => ({ x: m.month, y: m.cents }))} />
              <table className="sr-only">
                <caption>Income per month</caption>
                <tbody>
                  {stats.income_by_month.map((m) => (
                    <tr key={m.month}>
                      <th scope="row">{m.month}</th>
                      <td>
                        <Money cents={m.cents} currency={stats.currency} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="mt-2 text-sm">
                <Link to={`${base}/member-income`} className="font-medium text-brand-800 underline">
                  Income &amp; Shares
                </Link>{" "}
                shows every amount with the statements and lines behind it.
              </p>
            </>
          )}
        </ChartCard>
        <ChartCard title="Recent projects and work requests">
          {loaderData.projects.length + loaderData.workRequests.length === 0 ? (
            <EmptyState title="Nothing in progress">
              Browse the{" "}
              <Link to={`${base}/music-producers`} className="underline">
                music producers
              </Link>{" "}
              or{" "}
              <Link to={`${base}/studios`} className="underline">
                studios
              </Link>{" "}
              and send your first work request.
            </EmptyState>
          ) : (
            <RecentWork base={base} projects={loaderData.projects} workRequests={loaderData.workRequests} />
          )}
        </ChartCard>
      </div>
    </div>
  );
}
