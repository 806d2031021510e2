import { Fragment } from "react";
import { useHydrated } from "./hydrated";

/**
 * Money and dates in the browser's locale and time zone. The server cannot know
 * them, so it renders en-US/UTC and the browser re-renders after hydration (no mismatch).
 *
 * Building an Intl formatter costs far more than using one (it was most of a long table's server
 * render), so each locale and options pair is built once and kept.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function numberFormat(locale: string | undefined, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)));
  return format;
}

export function dateTimeFormat(locale: string | undefined, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  const key = `${locale ?? ""}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, options)));
  return format;
}

/**
 * The one count format: a whole number with grouping ("12,345"). en-US unless a locale is given: the same on
 * the server and in the browser, for text that cannot re-render (titles, labels, CSV); `null` is the browser's
 * (the runtime's) locale. Pages show counts with <Count>, which switches to it after hydration as money and
 * dates do.
 */
export const formatCount = (value: number, locale: string | null = "en-US") => numberFormat(locale ?? undefined, { maximumFractionDigits: 0 }).format(value);

export function Money({ cents, currency = "USD" }: { cents: number; currency?: string }) {
  const hydrated = useHydrated();
  const locale = hydrated ? undefined : "en-US";
  return <>{numberFormat(locale, { style: "currency", currency }).format(cents / 100)}</>;
}

export function DateTime({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const hydrated = useHydrated();
  const options: Intl.DateTimeFormatOptions = withTime ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
  const text = dateTimeFormat(hydrated ? undefined : "en-US", hydrated ? options : { ...options, timeZone: "UTC" }).format(new Date(iso));
  return <time dateTime={iso}>{text}</time>;
}

export function Count({ value }: { value: number }) {
  const hydrated = useHydrated();
  return <>{formatCount(value, hydrated ? null : "en-US")}</>;
}

/**
 * An address (email, IP, URL) that wraps only at its joints, after "@", ".", ":" or "/", never in the middle
 * of a word as `break-all` does; pair it with `break-words` so that a part wider than its box still wraps.
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.:/])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
