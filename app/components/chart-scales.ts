import { formatCount, numberFormat } from "./formatting";

/** Chart sizes and motion: heights 380, 500 and 360, the pie 400 wide, 800 ms. */
export const CHART = { lineHeight: 380, barHeight: 500, pieHeight: 360, pieWidth: 400, animationMs: 800 } as const;

/**
 * The arithmetic behind the charts (charts.tsx, nivo-charts.tsx): value formats, tick choices that leave
 * every label room at the chart's measured width, and months without gaps. Pure, so it is tested alone.
 *
 * Money reaches a chart as whole cents (integers, never a float dollar figure); the format turns them into
 * US dollars in the browser's locale.
 */

export type ChartValueFormat = "cents" | "count";

/** nivo's default axis and label font is 11 px; a digit or letter there is at most about 7 px wide. */
export const CHAR_PX = 7;
/** Room kept between two tick labels. */
const TICK_GAP_PX = 16;

/** "$45,000.00" for cents, "1,234" for counts; `whole` drops the cents (axis ticks on whole dollars). */
export function formatChartValue(value: number, format: ChartValueFormat, options: { whole?: boolean; locale?: string } = {}): string {
  if (format === "count") return formatCount(value, options.locale ?? null);
  const digits = options.whole ? 0 : 2;
  return numberFormat(options.locale, { style: "currency", currency: "USD", minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value / 100);
}

/** A text's width on an axis, estimated generously (never measured: the chart is laid out before it is drawn). */
export const textWidth = (text: string) => text.length * CHAR_PX;

/**
 * Round tick values from min to max, at most `maxCount` of them, each a 1, 2 or 5 times a power of ten
 * (whole dollars for money, whole numbers for counts). The scale runs from the first tick to the last, so
 * the top tick is never above the chart's last grid line.
 */
export function niceTicks(min: number, max: number, maxCount: number, format: ChartValueFormat): number[] {
  const unit = format === "cents" ? 100 : 1;
  const low = Math.min(0, min);
  const high = Math.max(0, max);
  const span = high - low;
  if (span === 0) return [0, unit];
  const count = Math.max(2, Math.floor(maxCount));
  for (let power = unit; ; power *= 10) {
    for (const step of [power, power * 2, power * 5]) {
      const from = Math.floor(low / step) * step;
      const to = Math.ceil(high / step) * step;
      if ((to - from) / step + 1 <= count) {
        return Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => from + i * step);
      }
    }
  }
}

/**
 * How many ticks fit along an axis `lengthPx` long when each label is `labelPx` wide (or high).
 * Never fewer than two: the first and the last.
 */
export function ticksThatFit(lengthPx: number, labelPx: number): number {
  return Math.max(2, Math.floor(lengthPx / (labelPx + TICK_GAP_PX)) + 1);
}

/**
 * The value ticks for an axis `lengthPx` long: as many round values as fit with their labels, and the
 * widest label's width (a left margin needs it).
 */
export function valueAxis(values: number[], format: ChartValueFormat, lengthPx: number, horizontal: boolean) {
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const labelFor = (v: number) => formatChartValue(v, format, { whole: true });
  // A first guess at the label size gives the count; the count gives the real labels.
  const guess = textWidth(labelFor(max === 0 && min === 0 ? 100 : Math.abs(max) > Math.abs(min) ? max : min));
  const ticks = niceTicks(min, max, ticksThatFit(lengthPx, horizontal ? guess : 11), format);
  const labelPx = Math.max(...ticks.map((t) => textWidth(labelFor(t))));
  return { ticks, labelPx, min: ticks[0]!, max: ticks[ticks.length - 1]! };
}

/** "2026-03" as a month; anything else is not one. */
const MONTH = /^(\d{4})-(\d{2})$/;

const nextMonth = (month: string) => {
  const [, y, m] = MONTH.exec(month)!;
  const year = Number(y);
  const index = Number(m);
  return index === 12 ? `${year + 1}-01` : `${year}-${String(index + 1).padStart(2, "0")}`;
};

/**
 * Every month from the first to the last of `months`, in order, so a chart never puts March beside June
 * as if they were neighbours: the months between carry `empty()` (zeros). Keys that are not months are
 * returned as they came.
 */
export function continuousMonths<T>(rows: T[], monthOf: (row: T) => string, empty: (month: string) => T): T[] {
  if (rows.length === 0 || !rows.every((r) => MONTH.test(monthOf(r)))) return rows;
  const byMonth = new Map(rows.map((r) => [monthOf(r), r]));
  const sorted = [...byMonth.keys()].sort();
  const out: T[] = [];
  // A runaway span (a stray year 1970 line) is capped: 50 years of months.
  for (let month = sorted[0]!, guard = 0; guard < 600; month = nextMonth(month), guard++) {
    out.push(byMonth.get(month) ?? empty(month));
    if (month === sorted[sorted.length - 1]) break;
  }
  return out;
}

/**
 * "Mar" for a month tick, "Mar 2026" for the first shown and for every January, so the year is always
 * read from the axis. Not a month: the value itself.
 */
export function monthTick(value: string, isFirst: boolean, locale?: string): string {
  const match = MONTH.exec(value);
  if (!match) return value;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  const withYear = isFirst || match[2] === "01";
  return new Intl.DateTimeFormat(locale, withYear ? { month: "short", year: "numeric", timeZone: "UTC" } : { month: "short", timeZone: "UTC" }).format(date);
}

/** "March 2026" in a tooltip. */
export function monthName(value: string, locale?: string): string {
  const match = MONTH.exec(value);
  if (!match) return value;
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)),
  );
}

/**
 * Which of `keys` (in order, each `spacingPx` apart on the axis) get a label, so that labels `labelPx` wide
 * never touch: every k-th, always starting with the first.
 */
export function spacedTicks<T>(keys: T[], spacingPx: number, labelPx: number): T[] {
  if (keys.length === 0) return [];
  // Keys can sit less than a pixel apart (decades of months on a phone): the spacing is not rounded up.
  const every = spacingPx > 0 ? Math.max(1, Math.ceil((labelPx + TICK_GAP_PX) / spacingPx)) : keys.length;
  return keys.filter((_, i) => i % every === 0);
}

/** A label cut to `maxPx` with an ellipsis (the whole text stays in the tooltip and the table). */
export function truncateLabel(text: string, maxPx: number): string {
  const max = Math.max(3, Math.floor(maxPx / CHAR_PX));
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

/** A slice's share of the whole as a whole percent; a share that rounds to 0 % but is not nothing reads "<1%". */
export function sharePercent(value: number, total: number): string {
  if (total <= 0 || value <= 0) return "0%";
  const percent = Math.round((value / total) * 100);
  return percent === 0 ? "<1%" : `${percent}%`;
}
