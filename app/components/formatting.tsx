import { useHydrated } from "./hydrated";

/**
 * Money and dates in the browser's locale and time zone (spec section 9). The server cannot know
 * them, so it renders en-US/UTC and the browser re-renders after hydration (no mismatch).
 */
export function Money({ cents, currency = "USD" }: { cents: number; currency?: string }) {
  const hydrated = useHydrated();
  const locale = hydrated ? undefined : "en-US";
  return <>{new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100)}</>;
}

export function DateTime({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const hydrated = useHydrated();
  const options: Intl.DateTimeFormatOptions = withTime
    ? { dateStyle: "medium", timeStyle: "short" }
    : { dateStyle: "medium" };
  const text = new Intl.DateTimeFormat(hydrated ? undefined : "en-US", hydrated ? options : { ...options, timeZone: "UTC" }).format(
    new Date(iso),
  );
  return <time dateTime={iso}>{text}</time>;
}

export function Count({ value }: { value: number }) {
  const hydrated = useHydrated();
  return <>{new Intl.NumberFormat(hydrated ? undefined : "en-US").format(value)}</>;
}
