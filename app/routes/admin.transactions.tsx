import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { JournalEntries, JournalFiltersForm } from "~/modules/ledger/reports/journal-pages";
import { journalPage, parseJournalFilters } from "~/modules/ledger/reports/journal-view.server";
import type { Route } from "./+types/admin.transactions";

export const handle = { routeName: "admin-transactions" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Transactions");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  const filters = parseJournalFilters(new URL(request.url).searchParams);
  return { filters, journal: await journalPage(filters) };
}

export default function AdminTransactions({ loaderData }: Route.ComponentProps) {
  const { filters, journal } = loaderData;
  const filtered = Boolean(filters.account || filters.member || filters.kind || filters.from || filters.to);
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Transactions</h1>
        <p className="text-sm text-stone-600">The ledger's journal: every entry, its postings (each entry sums to zero) and where it came from.</p>
      </div>
      <JournalFiltersForm filters={filters} kinds={journal.kinds} />
      <JournalEntries journal={journal} filtered={filtered} postingsFiltered={Boolean(filters.account || filters.member)} />
    </div>
  );
}
