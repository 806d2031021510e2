import { lazy, Suspense, type ReactNode } from "react";
import { useHydrated } from "./hydrated";

/** Chart sizes and motion from the product specification: heights 380, 500 and 360, the pie 400 wide, 800 ms. */
export const CHART = { lineHeight: 380, barHeight: 500, pieHeight: 360, pieWidth: 400, animationMs: 800 } as const;

export function ChartCard({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
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
 */
const NivoLine = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoLine })));
const NivoBar = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoBar })));
const NivoPie = lazy(() => import("./nivo-charts").then((m) => ({ default: m.NivoPie })));

function ClientOnlyChart({ height, width, label, children }: { height: number; width?: number; label: string; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <div
      role="img"
      aria-label={label}
      // A width is a most: a percentage width gives the box no minimum, so a narrow grid column is not widened by it.
      className={width ? "mx-auto w-full overflow-hidden" : undefined}
      style={{ height, maxWidth: width }}
      data-chart-height={height}
    >
      {hydrated ? <Suspense fallback={null}>{children}</Suspense> : null}
    </div>
  );
}

export interface LineChartProps {
  label: string;
  /** Points keyed by month ("YYYY-MM"), counts on the y axis. */
  points: Array<{ x: string; y: number }>;
}
export interface BarChartProps {
  label: string;
  bars: Array<{ label: string; value: number }>;
}
export interface PieChartProps {
  label: string;
  slices: Array<{ id: string; label: string; value: number }>;
}

export function LineChart(props: LineChartProps) {
  return (
    <ClientOnlyChart height={CHART.lineHeight} label={props.label}>
      <NivoLine {...props} />
    </ClientOnlyChart>
  );
}

export function BarChart(props: BarChartProps) {
  return (
    <ClientOnlyChart height={CHART.barHeight} label={props.label}>
      <NivoBar {...props} />
    </ClientOnlyChart>
  );
}

/** 400 wide and 360 high, shrinking on a narrow screen. */
export function PieChart(props: PieChartProps) {
  return (
    <ClientOnlyChart height={CHART.pieHeight} width={CHART.pieWidth} label={props.label}>
      <NivoPie {...props} />
    </ClientOnlyChart>
  );
}

export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-stone-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tracking-tight">{value}</p>
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
