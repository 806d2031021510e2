import { ResponsiveBar } from "@nivo/bar";
import { ResponsiveLine } from "@nivo/line";
import { ResponsivePie } from "@nivo/pie";
import { CHART, type BarChartProps, type LineChartProps, type PieChartProps } from "./charts";

/**
 * The nivo renderers behind charts.tsx. Loaded on demand, after the page has hydrated, so a page ships
 * no chart code on first load (and a page without a chart never loads it).
 */
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

export function NivoLine({ label, points }: LineChartProps) {
  return (
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
  );
}

export function NivoBar({ bars }: BarChartProps) {
  return (
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
  );
}

export function NivoPie({ slices }: PieChartProps) {
  return (
    <ResponsivePie
      data={slices}
      margin={{ top: 24, right: 72, bottom: 24, left: 72 }}
      innerRadius={0.55}
      padAngle={1}
      cornerRadius={3}
      colors={colors}
      arcLinkLabelsSkipAngle={8}
      motionConfig={motion}
    />
  );
}
