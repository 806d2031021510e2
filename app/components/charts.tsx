import { lazy, Suspense, type ReactNode } from "react";
import { CHART, continuousMonths, formatChartValue, sharePercent, type ChartValueFormat } from "./chart-scales";
import { useHydrated } from "./hydrated";

export function ChartCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <h2 className="text-base font-semibold">{title}</h2>
      {description ? <p className="mt-0.5 text-sm text-stone-500">{description}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

/**
 * Charts render in the browser only (responsive nivo charts render nothing on the server, STACK.md), and
 * their code loads on demand after hydration: a same-size box holds the place meanwhile, so nothing moves.
 * Each chart has a text equivalent on its page (a table or a legend) and a label for screen readers.
 */
const NivoLine = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoLine })));
const NivoBar = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoBar })));
const NivoMonthBars = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoMonthBars })));
const NivoPie = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoPie })));

/** Dark enough for white value labels on them (WCAG AA for 11 px bold is 4.5:1; each is above). */
export const CHART_COLORS = ["#14532d", "#0e7490", "#a16207", "#9f1239", "#6d28d9", "#15803d", "#1d4ed8", "#b45309", "#475569", "#be185d"];

function ClientOnlyChart({ height, width, label, children }: { height: number; width?: number; label: string; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <div
      role="img"
      aria-label={label}
      // A width is a most: a percentage width gives the box no minimum, so a narrow grid column is not widened by it.
      className={width ? "mx-auto w-full overflow-hidden" : "w-full"}
      style={{ height, maxWidth: width }}
      data-chart-height={height}
    >
      {hydrated ? <Suspense fallback={null}>{children}</Suspense> : null}
    </div>
  );
}

export interface LineChartProps {
  label: string;
  /** Points keyed by month ("YYYY-MM"); the months between two points are drawn at zero. */
  points: Array<{ x: string; y: number }>;
  /** Whole cents (shown as US dollars) or a count. */
  format: ChartValueFormat;
}
export interface BarChartProps {
  label: string;
  /** Named categories (stores, tracks, roles), largest first, drawn as horizontal bars. */
  bars: Array<{ label: string; value: number }>;
  format: ChartValueFormat;
}
export interface MonthBarChartProps {
  label: string;
  /** Values per month ("YYYY-MM") and series key; the months between are drawn at zero. */
  months: Array<{ month: string; values: Record<string, number> }>;
  /** One series, or several stacked (with a legend). */
  series: Array<{ key: string; label: string; color: string }>;
  format: ChartValueFormat;
}
export interface PieChartProps {
  label: string;
  slices: Array<{ id: string; label: string; value: number; color?: string }>;
  format: ChartValueFormat;
  /** The list of slices with their amounts and shares, under the chart (off when the page shows them already). */
  legend?: boolean;
}

export function LineChart(props: LineChartProps) {
  const points = continuousMonths(
    props.points,
    (p) => p.x,
    (month) => ({ x: month, y: 0 }),
  );
  return (
    <ClientOnlyChart height={CHART.lineHeight} label={props.label}>
      <NivoLine {...props} points={points} color={CHART_COLORS[0]!} />
    </ClientOnlyChart>
  );
}

export function BarChart(props: BarChartProps) {
  return (
    <ClientOnlyChart height={CHART.barHeight} label={props.label}>
      <NivoBar {...props} color={CHART_COLORS[0]!} />
    </ClientOnlyChart>
  );
}

export function MonthBarChart(props: MonthBarChartProps) {
  const months = continuousMonths(
    props.months,
    (m) => m.month,
    (month) => ({ month, values: {} }),
  );
  return (
    <>
      {props.series.length > 1 ? <ChartLegend items={props.series.map((s) => ({ id: s.key, label: s.label, color: s.color }))} /> : null}
      <ClientOnlyChart height={CHART.barHeight} label={props.label}>
        <NivoMonthBars {...props} months={months} />
      </ClientOnlyChart>
    </>
  );
}

/** Series or slices named beside their colour, in HTML (it wraps on a phone; a legend drawn in the chart would not). */
export function ChartLegend({ items }: { items: Array<{ id: string; label: string; color: string; value?: ReactNode }> }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-stone-700">
      {items.map((item) => (
        <li key={item.id} className="flex min-w-0 items-center gap-1.5">
          <span aria-hidden="true" className="size-2.5 shrink-0 rounded-sm" style={{ background: item.color }} />
          <span className="break-words">{item.label}</span>
          {item.value !== undefined ? <span className="font-medium whitespace-nowrap text-stone-900">{item.value}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** A chart's value as text: en-US on the server, the browser's locale once hydrated (as Money does). */
export function ChartValue({ value, format }: { value: number; format: ChartValueFormat }) {
  const hydrated = useHydrated();
  return <>{formatChartValue(value, format, { locale: hydrated ? undefined : "en-US" })}</>;
}

/**
 * 400 wide at most and 360 high, shrinking on a narrow screen. One slice is not a chart: a
 * ring of one colour says nothing a sentence does not, so it is shown as a figure.
 */
export function PieChart({ legend = true, ...props }: PieChartProps) {
  const slices = props.slices.filter((s) => s.value > 0);
  const colors = slices.map((s, i) => s.color ?? CHART_COLORS[i % CHART_COLORS.length]!);
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  if (slices.length === 0) return null;
  if (slices.length === 1) {
    return (
      <figure className="rounded-lg bg-stone-50 px-4 py-6 text-center" data-single-slice>
        <p className="text-2xl font-semibold tracking-tight break-words">{slices[0]!.label}</p>
        <p className="mt-1 text-sm text-stone-700">
          100% · <ChartValue value={slices[0]!.value} format={props.format} />
        </p>
        <figcaption className="mt-1 text-xs text-stone-500">{props.label}</figcaption>
      </figure>
    );
  }
  return (
    <div className="space-y-3">
      <ClientOnlyChart height={CHART.pieHeight} width={CHART.pieWidth} label={props.label}>
        <NivoPie {...props} slices={slices} colors={colors} />
      </ClientOnlyChart>
      {legend ? (
        <ChartLegend
          items={slices.map((s, i) => ({
            id: s.id,
            label: s.label,
            color: colors[i]!,
            value: (
              <>
                <ChartValue value={s.value} format={props.format} /> · {sharePercent(s.value, total)}
              </>
            ),
          }))}
        />
      ) : null}
    </div>
  );
}

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-stone-500">{label}</p>
      {/* Two cards a row on a phone: a large amount takes the smaller size, and wraps rather than leave its card. */}
      <p className="mt-1 text-xl font-semibold tracking-tight [overflow-wrap:anywhere] tabular-nums sm:text-2xl">{value}</p>
      {hint ? <p className="mt-1 text-xs text-stone-500">{hint}</p> : null}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-stone-300 px-4 py-8 text-center">
      <p className="font-medium text-stone-800">{title}</p>
      {children ? <div className="mt-1 text-sm text-stone-600">{children}</div> : null}
    </div>
  );
}
