import { ResponsiveBar } from "@nivo/bar";
import { ResponsiveLine } from "@nivo/line";
import { Pie } from "@nivo/pie";
import type { ReactNode } from "react";
import { useHydrated } from "./hydrated";

/** Chart sizes and motion from spec section 9: heights 380, 500 and 360, the pie 400 wide, 800 ms. */
export const CHART = { lineHeight: 380, barHeight: 500, pieHeight: 360, pieWidth: 400, animationMs: 800 } as const;
const motion = { duration: CHART.animationMs };
/** Whole-number ticks for counts: every value up to 6, else about five steps. */
function integerTicks(values: number[]): number[] | number {
  const max = Math.max(0, ...values);
  if (max <= 6) return Array.from({ length: max + 1 }, (_, i) => i);
  return 5;
}

/** "2026-03" -> "Mar"; January carries its year so the axis reads across a new year. */
function monthLabel(value: string | number | Date): string {
  const [year, month] = String(value).split("-").map(Number);
  if (!year || !month) return String(value);
  const name = new Date(Date.UTC(year, month - 1, 1)).toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  return month === 1 ? `${name} ${String(year).slice(2)}` : name;
}

const colors = ["#14532d", "#16a34a", "#65a30d", "#0e7490", "#a16207", "#9f1239", "#6d28d9"];

export function ChartCard({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <h2 className="text-base font-semibold">{title}</h2>
      {description ? <p className="mt-0.5 text-sm text-stone-500">{description}</p> : null}
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Responsive charts render nothing on the server (STACK.md): they mount in the browser; a same-size box holds the place. */
function ClientOnlyChart({ height, label, children }: { height: number; label: string; children: () => ReactNode }) {
  const hydrated = useHydrated();
  return (
    <div role="img" aria-label={label} style={{ height }} data-chart-height={height}>
      {hydrated ? children() : null}
    </div>
  );
}

/** Points keyed by month ("YYYY-MM"), counts on the y axis. */
export function LineChart({ label, points }: { label: string; points: Array<{ x: string; y: number }> }) {
  return (
    <ClientOnlyChart height={CHART.lineHeight} label={label}>
      {() => (
        <ResponsiveLine
          data={[{ id: label, data: points }]}
          margin={{ top: 16, right: 16, bottom: 40, left: 40 }}
          colors={[colors[0]!]}
          yScale={{ type: "linear", min: 0, max: "auto" }}
          axisLeft={{ tickValues: integerTicks(points.map((p) => p.y)), format: (v) => String(v) }}
          axisBottom={{ format: monthLabel }}
          yFormat=">-.0f"
          enableArea
          areaOpacity={0.08}
          pointSize={6}
          useMesh
          motionConfig={motion}
        />
      )}
    </ClientOnlyChart>
  );
}

export function BarChart({ label, bars }: { label: string; bars: Array<{ label: string; value: number }> }) {
  return (
    <ClientOnlyChart height={CHART.barHeight} label={label}>
      {() => (
        <ResponsiveBar
          data={bars.map((b) => ({ label: b.label, value: b.value }))}
          keys={["value"]}
          indexBy="label"
          margin={{ top: 16, right: 16, bottom: 48, left: 40 }}
          colors={[colors[1]!]}
          padding={0.35}
          axisLeft={{ tickValues: integerTicks(bars.map((b) => b.value)) }}
          motionConfig={motion}
        />
      )}
    </ClientOnlyChart>
  );
}

/** Fixed size, so it renders on the server too. */
export function PieChart({ label, slices }: { label: string; slices: Array<{ id: string; label: string; value: number }> }) {
  return (
    <div role="img" aria-label={label} className="mx-auto max-w-full overflow-hidden" style={{ width: CHART.pieWidth }}>
      <Pie
        width={CHART.pieWidth}
        height={CHART.pieHeight}
        data={slices}
        margin={{ top: 24, right: 72, bottom: 24, left: 72 }}
        innerRadius={0.55}
        padAngle={1}
        cornerRadius={3}
        colors={colors}
        arcLinkLabelsSkipAngle={8}
        motionConfig={motion}
      />
    </div>
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
