/**
 * Money primitives for the royalty ledger (see docs/money.md).
 *
 * The ledger counts micro-units (1/1,000,000 of a currency unit) in bigint. Decimal text is turned into
 * micro-units by exact string-to-integer parsing (the digits go straight into a BigInt, never through a
 * JavaScript number), so no binary-float error can creep in, and any 7th+ decimal is rounded half-to-even
 * exactly once, here. big.js checks rates; money.test.ts checks the parser against it on random input.
 * Pages show cents; payouts move whole cents.
 */
import BigJs from "big.js";

/** A private big.js constructor: its settings cannot be changed by other code, and strict mode refuses numbers. */
const Decimal = BigJs();
Decimal.strict = true;

export const MICROS_PER_UNIT = 1_000_000n;
/** The largest amount a bigint column holds (2^63 - 1 micro-units, about 9.2 trillion units). */
export const MAX_LEDGER_MICROS = 2n ** 63n - 1n;
const MICROS_PER_CENT = 10_000n;

/** A value that is not an amount we accept. The message names the value, for the user or the import log. */
export class MoneyParseError extends Error {
  readonly value: string;
  constructor(message: string, value: string) {
    super(message);
    this.name = "MoneyParseError";
    this.value = value;
  }
}

// Plain decimals only: an optional sign, digits with an optional fraction, or a bare fraction (".5").
// No exponent ("1e3"), no thousands separators ("1,000" could be a European 1.000), no currency signs.
const PLAIN_DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Trims, checks the plain-decimal grammar and drops a leading "+" (big.js does not accept one). */
function plainDecimal(input: string): string | null {
  const trimmed = input.trim();
  if (!PLAIN_DECIMAL.test(trimmed)) return null;
  return trimmed.startsWith("+") ? trimmed.slice(1) : trimmed;
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;

/**
 * The plain-decimal grammar above, read character by character (no regex, no big.js: this runs once per
 * statement line): the sign, the whole digits and the fraction digits, or null when the text is not one.
 */
function splitDecimal(text: string): { negative: boolean; whole: string; fraction: string } | null {
  const length = text.length;
  let i = 0;
  let negative = false;
  const first = text.charCodeAt(0);
  if (first === 45 /* - */ || first === 43 /* + */) {
    negative = first === 45;
    i = 1;
  }
  const wholeStart = i;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) break;
    i++;
  }
  const wholeEnd = i;
  let fractionStart = i;
  if (i < length) {
    if (text.charCodeAt(i) !== 46 /* . */) return null;
    i++;
    fractionStart = i;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c < DIGIT_0 || c > DIGIT_9) return null;
      i++;
    }
  }
  if (wholeEnd === wholeStart && i === fractionStart) return null; // no digit at all ("", "-", ".")
  return { negative, whole: text.slice(wholeStart, wholeEnd), fraction: text.slice(fractionStart, i) };
}

/**
 * "12.345678" -> 12345678n. Rounds a 7th+ decimal half-to-even on the magnitude (the sign is kept), so
 * "0.0000015" -> 2n, "0.0000025" -> 2n and "-1.2345675" -> -1234568n. Exact: the digits themselves are
 * read into a BigInt.
 */
export function parseDecimalToMicros(input: string): bigint {
  const parts = splitDecimal(input.trim());
  if (parts === null) throw new MoneyParseError(`“${input.trim()}” is not a decimal such as 12.50.`, input);
  const { negative, whole, fraction } = parts;
  let magnitude: bigint;
  if (fraction.length <= 6) {
    magnitude = BigInt(whole + fraction + "000000".slice(fraction.length));
  } else {
    magnitude = BigInt(whole + fraction.slice(0, 6));
    // Half-to-even on what follows the 6th decimal: above half rounds up, a tie rounds to the even neighbour.
    const next = fraction.charCodeAt(6) - DIGIT_0;
    let beyondTie = false;
    for (let i = 7; i < fraction.length; i++) {
      if (fraction.charCodeAt(i) !== DIGIT_0) {
        beyondTie = true;
        break;
      }
    }
    if (next > 5 || (next === 5 && (beyondTie || magnitude % 2n === 1n))) magnitude += 1n;
  }
  return negative ? -magnitude : magnitude; // -0n is 0n, so a tiny negative rounds to a plain zero
}

/**
 * Checks an exchange rate (home units per one original unit, e.g. "1.0832") and returns it trimmed,
 * without a leading "+". Zero and negative rates are refused: no real conversion has them.
 */
export function parseExchangeRate(input: string): string {
  const text = plainDecimal(input);
  if (text === null || !new Decimal(text).gt("0")) {
    throw new MoneyParseError(`“${input.trim()}” is not a positive exchange rate such as 1.0832.`, input);
  }
  return text;
}

/** A checked rate as an exact fraction: numerator / 10^scale. Statements repeat a few rates, so they are kept. */
const rateFractions = new Map<string, { numerator: bigint; divisor: bigint }>();

function rateFraction(rate: string): { numerator: bigint; divisor: bigint } {
  let found = rateFractions.get(rate);
  if (!found) {
    const checked = parseExchangeRate(rate);
    const { whole, fraction } = splitDecimal(checked)!;
    found = { numerator: BigInt(whole + fraction), divisor: 10n ** BigInt(fraction.length) };
    if (rateFractions.size >= 1000) rateFractions.clear();
    rateFractions.set(rate, found);
  }
  return found;
}

/** An amount in another currency times its rate, rounded half-to-even to a whole home micro-unit. */
export function convertToHomeMicros(originalMicros: bigint, rate: string): bigint {
  const { numerator, divisor } = rateFraction(rate);
  const negative = originalMicros < 0n;
  const product = (negative ? -originalMicros : originalMicros) * numerator;
  let quotient = product / divisor;
  const twiceRemainder = (product % divisor) * 2n;
  if (twiceRemainder > divisor || (twiceRemainder === divisor && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

/** 12345678n -> "12.345678": always six decimals, the JSON contract's format. */
export function formatMicros(micros: bigint): string {
  const negative = micros < 0n;
  const magnitude = negative ? -micros : micros;
  const units = magnitude / MICROS_PER_UNIT;
  const fraction = (magnitude % MICROS_PER_UNIT).toString().padStart(6, "0");
  return `${negative ? "-" : ""}${units}.${fraction}`;
}

/**
 * Whole cents, rounded toward negative infinity. docs/money.md: the available balance is "rounded down to whole
 * cents" so that a payout can never exceed what is there; for a negative balance rounding down also moves
 * away from zero (-0.000001 -> -1 cent), which keeps "available" on the safe side in both directions.
 */
export function microsToCentsFloor(micros: bigint): bigint {
  const cents = micros / MICROS_PER_CENT; // bigint division truncates toward zero
  return micros < 0n && micros % MICROS_PER_CENT !== 0n ? cents - 1n : cents;
}

export function centsToMicros(cents: bigint): bigint {
  return cents * MICROS_PER_CENT;
}

// "12", "12.3", "12.34", "$1,234.56": a leading dollar sign, and commas only between groups of three digits.
const DOLLARS_AND_CENTS = /^\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/;
const DOLLARS_MESSAGE = "Enter an amount such as 12.34.";
/** A comma that is not a thousands separator ("10,00"): refused, never read as a decimal point or dropped. */
export const DECIMAL_COMMA_MESSAGE = "Use a point for cents, such as 10.00: a comma only separates thousands, as in 1,000.00.";

/**
 * Every money field of every form (payouts, escrow, budgets, estimates, profile rates) goes through this one
 * parser: "12.34", "12", "12.3", "$1,234.56" to cents, as a BigInt from the digits (no float). No sign, at most
 * two decimals, and a comma only as a thousands separator: "10,00" used to become $1,000.00 where commas were
 * dropped, so a comma anywhere else is refused with DECIMAL_COMMA_MESSAGE; anything else with `message` (the
 * field's own wording; default "Enter an amount such as 12.34.").
 */
export function parseDollarsToCents(input: string, options: { message?: string } = {}): bigint {
  const text = input.trim();
  const match = DOLLARS_AND_CENTS.exec(text);
  if (!match) throw new MoneyParseError(text.includes(",") ? DECIMAL_COMMA_MESSAGE : (options.message ?? DOLLARS_MESSAGE), input);
  const [, whole, fraction = ""] = match;
  return BigInt(whole!.replaceAll(",", "")) * 100n + BigInt(fraction.padEnd(2, "0"));
}

/**
 * A money field for a form schema: the cents, or the message to show beside the field (the comma rule's, or
 * `message` for anything else, including an amount outside [min, max] cents).
 */
export function dollarsField(input: string | undefined, message: string, range: { min?: bigint; max?: bigint } = {}): { cents: bigint } | { error: string } {
  if (!input || input.trim() === "") return { error: message };
  let cents: bigint;
  try {
    cents = parseDollarsToCents(input, { message });
  } catch (error) {
    if (error instanceof MoneyParseError) return { error: error.message };
    throw error;
  }
  if ((range.min !== undefined && cents < range.min) || (range.max !== undefined && cents > range.max)) return { error: message };
  return { cents };
}

const CURRENCY_SYMBOLS: Record<string, string> = { USD: "$", EUR: "€", GBP: "£" };

/** 123456n -> "$1,234.56", -100n -> "-$1.00". Integer arithmetic only; other currencies show their code. */
export function formatCents(cents: bigint, currency = "USD"): string {
  const negative = cents < 0n;
  const magnitude = negative ? -cents : cents;
  const whole = (magnitude / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = (magnitude % 100n).toString().padStart(2, "0");
  const code = currency.toUpperCase();
  const prefix = CURRENCY_SYMBOLS[code] ?? `${code} `;
  return `${negative ? "-" : ""}${prefix}${whole}.${fraction}`;
}
