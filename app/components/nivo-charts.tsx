import { Bar, type BarDatum, type BarTooltipProps } from "@nivo/bar";
import { Line } from "@nivo/line";
import { Pie } from "@nivo/pie";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import { formatChartValue, monthName, monthTick, sharePercent, spacedTicks, textWidth, truncateLabel, valueAxis } from "./chart-scales";
import { CHART } from "./chart-scales";
import type { BarChartProps, LineChartProps, MonthBarChartProps, PieChartProps } from "./charts";

/**
 * The nivo renderers behind charts.tsx. Loaded on demand, after the page has hydrated, so a page ships no
 * chart code on first load (and a page without a chart never loads it).
 *
 * Each chart measures its own width and lays its axes out for it (chart-scales.ts): money in dollars with
 * thousands separators, as many ticks as have room for their labels (fewer on a phone), long names cut to
 * the margin (whole in the tooltip), and no value label on a bar too small to hold it.
 */
const motion = { duration: CHART.animationMs };
/** Axis text: 11 px, as chart-scales.ts assumes; stone-600 on white. */
const theme = { text: { fontSize: 11, fill: "#57534e" }, axis: { ticks: { text: { fontSize: 11, fill: "#57534e" } } } };
/** Tick line (5) and its padding (5) between an axis and its labels. */
const TICK_SPACE = 10;
/** The widest month tick ("Sept 2026" in some locales). */
const MONTH_TICK_PX = textWidth("Sept 2026");

function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry!.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** A chart drawn at its box's measured width (nothing until it is known). */
function Measured({ height, children }: { height: number; children: (width: number) => ReactNode }) {
  const [ref, width] = useWidth();
  return (
    <div ref={ref} style={{ height, width: "100%" }}>
      {width > 0 ? children(width) : null}
    </div>
  );
}

function Tooltip({ color, title, value }: { color: string; title: string; value: string }) {
  return (
    <div className="flex items-center gap-2 rounded-md border border-stone-200 bg-white px-2.5 py-1.5 text-xs shadow-md">
      <span aria-hidden="true" className="size-2.5 shrink-0 rounded-sm" style={{ background: color }} />
      <span className="text-stone-700">{title}</span>
      <strong className="font-semibold whitespace-nowrap text-stone-900">{value}</strong>
    </div>
  );
}

const monthTickFormat = (first: string) => (value: string | number) => monthTick(String(value), String(value) === first);

export function NivoLine({ points, format, color }: LineChartProps & { color: string }) {
  return (
    <Measured height={CHART.lineHeight}>
      {(width) => {
        const values = points.map((p) => p.y);
        const top = 16;
        const bottom = 40;
        const innerHeight = CHART.lineHeight - top - bottom;
        const y = valueAxis(values, format, innerHeight, false);
        const first = points[0]?.x ?? "";
        const margin = { top, bottom, left: Math.max(y.labelPx + TICK_SPACE + 4, MONTH_TICK_PX / 2 + 4), right: MONTH_TICK_PX / 2 + 4 };
        const innerWidth = width - margin.left - margin.right;
        const step = points.length > 1 ? innerWidth / (points.length - 1) : innerWidth;
        const xTicks = spacedTicks(
          points.map((p) => p.x),
          step,
          MONTH_TICK_PX,
        );
        return (
          <Line
            width={width}
            height={CHART.lineHeight}
            data={[{ id: "value", data: points }]}
            margin={margin}
            theme={theme}
            colors={[color]}
            xScale={{ type: "point" }}
            yScale={{ type: "linear", min: y.min, max: y.max }}
            axisLeft={{ tickValues: y.ticks, format: (v) => formatChartValue(Number(v), format, { whole: true }) }}
            gridYValues={y.ticks}
            axisBottom={{ tickValues: xTicks, format: monthTickFormat(first) }}
            gridXValues={xTicks}
            yFormat={(v) => formatChartValue(Number(v), format)}
            enableArea
            areaOpacity={0.08}
            pointSize={6}
            useMesh
            tooltip={({ point }) => <Tooltip color={color} title={monthName(String(point.data.x))} value={point.data.yFormatted} />}
            motionConfig={motion}
          />
        );
      }}
    </Measured>
  );
}

/** Categories (stores, tracks, roles) as horizontal bars: a name of any length reads on its own line. */
export function NivoBar({ bars, format, color }: BarChartProps & { color: string }) {
  return (
    <Measured height={CHART.barHeight}>
      {(width) => {
        const fmt = (v: number) => formatChartValue(v, format);
        const top = 8;
        const bottom = 32;
        const xAxisWidth = width * 0.6;
        const x = valueAxis(
          bars.map((b) => b.value),
          format,
          xAxisWidth,
          true,
        );
        // Names take what they need, up to 40 % of the width; a longer one is cut (whole in the tooltip).
        const nameRoom = Math.min(Math.floor(width * 0.4), Math.max(...bars.map((b) => textWidth(b.label)), 24));
        const margin = { top, bottom, left: nameRoom + TICK_SPACE + 4, right: Math.ceil(x.labelPx / 2) + 8 };
        const innerWidth = width - margin.left - margin.right;
        const ticks = spacedTicks(x.ticks, innerWidth / Math.max(1, x.ticks.length - 1), x.labelPx);
        const data = bars.map((b, i) => ({ key: `${i}`, name: b.label, value: b.value }));
        const nameOf = new Map(data.map((d) => [d.key, d.name]));
        const fits = (v: number) => (Math.abs(v) / (x.max - x.min)) * innerWidth >= textWidth(fmt(v)) + 12;
        return (
          <Bar
            width={width}
            height={CHART.barHeight}
            // nivo draws the first datum at the bottom of a horizontal chart: reversed, the largest is on top.
            data={[...data].reverse()}
            keys={["value"]}
            indexBy="key"
            layout="horizontal"
            margin={margin}
            theme={theme}
            colors={[color]}
            padding={0.3}
            valueScale={{ type: "linear", min: x.min, max: x.max }}
            enableGridX
            enableGridY={false}
            gridXValues={ticks}
            axisBottom={{ tickValues: ticks, format: (v) => formatChartValue(Number(v), format, { whole: true }) }}
            axisLeft={{ format: (key) => truncateLabel(nameOf.get(String(key)) ?? "", nameRoom) }}
            valueFormat={fmt}
            // A value only on a bar long enough to hold it (nivo's labelSkipWidth is one width for all bars).
            label={(d) => (fits(Number(d.value)) ? fmt(Number(d.value)) : "")}
            labelSkipHeight={14}
            labelTextColor="#ffffff"
            tooltip={({ indexValue, value, color: c }: BarTooltipProps<BarDatum>) => (
              <Tooltip color={c} title={nameOf.get(String(indexValue)) ?? ""} value={fmt(value)} />
            )}
            motionConfig={motion}
          />
        );
      }}
    </Measured>
  );
}

/** Months as vertical bars, one series or several stacked; every month from the first to the last. */
export function NivoMonthBars({ months, series, format }: MonthBarChartProps) {
  return (
    <Measured height={CHART.barHeight}>
      {(width) => {
        const fmt = (v: number) => formatChartValue(v, format);
        const top = 16;
        const bottom = 40;
        const innerHeight = CHART.barHeight - top - bottom;
        const totals = months.flatMap((m) => {
          const values = series.map((s) => m.values[s.key] ?? 0);
          return [values.filter((v) => v > 0).reduce((a, b) => a + b, 0), values.filter((v) => v < 0).reduce((a, b) => a + b, 0)];
        });
        const y = valueAxis(totals, format, innerHeight, false);
        const first = months[0]?.month ?? "";
        const margin = { top, bottom, left: Math.max(y.labelPx + TICK_SPACE + 4, MONTH_TICK_PX / 2), right: 12 };
        const innerWidth = width - margin.left - margin.right;
        const xTicks = spacedTicks(
          months.map((m) => m.month),
          innerWidth / Math.max(1, months.length),
          MONTH_TICK_PX,
        );
        const labelOf = new Map(series.map((s) => [s.key, s.label]));
        const single = series.length === 1;
        const data = months.map((m) => ({ month: m.month, ...Object.fromEntries(series.map((s) => [s.key, m.values[s.key] ?? 0])) }));
        return (
          <Bar
            width={width}
            height={CHART.barHeight}
            data={data}
            keys={series.map((s) => s.key)}
            indexBy="month"
            margin={margin}
            theme={theme}
            colors={series.map((s) => s.color)}
            padding={0.3}
            valueScale={{ type: "linear", min: y.min, max: y.max }}
            gridYValues={y.ticks}
            axisLeft={{ tickValues: y.ticks, format: (v) => formatChartValue(Number(v), format, { whole: true }) }}
            axisBottom={{ tickValues: xTicks, format: monthTickFormat(first) }}
            valueFormat={fmt}
            // One series: a value on each bar wide and tall enough for it. Stacked: values in the tooltip only.
            enableLabel={single}
            label={(d) => fmt(Number(d.value))}
            labelSkipWidth={Math.max(0, ...months.map((m) => textWidth(fmt(m.values[series[0]!.key] ?? 0)))) + 6}
            labelSkipHeight={16}
            labelTextColor="#ffffff"
            tooltip={({ id, indexValue, value, color }: BarTooltipProps<BarDatum>) => (
              <Tooltip
                color={color}
                title={single ? monthName(String(indexValue)) : `${labelOf.get(String(id))}, ${monthName(String(indexValue))}`}
                value={fmt(value)}
              />
            )}
            motionConfig={motion}
          />
        );
      }}
    </Measured>
  );
}

export function NivoPie({ slices, format, colors }: PieChartProps & { colors: string[] }) {
  const total = slices.reduce((sum, s) => sum + s.value, 0);
  const percent = (v: number) => sharePercent(v, total);
  return (
    <Measured height={CHART.pieHeight}>
      {(width) => (
        <Pie
          width={width}
          height={CHART.pieHeight}
          data={slices}
          margin={{ top: 12, right: 12, bottom: 12, left: 12 }}
          innerRadius={0.55}
          padAngle={1}
          cornerRadius={3}
          colors={colors}
          theme={theme}
          valueFormat={(v) => formatChartValue(v, format)}
          // Names and amounts are in the legend beside the chart; a slice carries its share only if it has room.
          enableArcLinkLabels={false}
          arcLabel={(d) => percent(d.value)}
          arcLabelsSkipAngle={24}
          arcLabelsTextColor="#ffffff"
          tooltip={({ datum }) => <Tooltip color={datum.color} title={String(datum.label)} value={`${datum.formattedValue} (${percent(datum.value)})`} />}
          motionConfig={motion}
        />
      )}
    </Measured>
  );
}
