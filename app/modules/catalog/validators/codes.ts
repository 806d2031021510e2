/**
 * The catalogue's identifiers, checked the way stores and societies check them, so a release is never
 * refused downstream for a mistyped code:
 * - UPC-A (12 digits) and EAN-13 (13 digits): GS1 check digit;
 * - ISRC (ISO 3901): CC-XXX-YY-NNNNN, stored uppercase without hyphens;
 * - ISWC (ISO 15707): T-DDD.DDD.DDD-C with its check digit.
 * Each check answers null when the code is good, else a message for the field.
 */

/** GS1 check digit of the digits before it (UPC-A: 11 digits, EAN-13: 12). */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  // Weights 3 and 1 alternate from the rightmost digit of the body.
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i]);
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

export function normalizeUpc(value: string): string {
  return value.replace(/[\s-]/g, "");
}

export function upcProblem(value: string): string | null {
  const code = normalizeUpc(value);
  if (!/^\d{12,13}$/.test(code)) return "A UPC has 12 digits (or an EAN 13).";
  const expected = gs1CheckDigit(code.slice(0, -1));
  return Number(code.at(-1)) === expected ? null : `The UPC's check digit is wrong: expected ${expected}.`;
}

/** "us-bl1-26-00001" -> "USBL12600001". */
export function normalizeIsrc(value: string): string {
  return value.replace(/[\s-]/g, "").toUpperCase();
}

export function isrcProblem(value: string): string | null {
  return /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(normalizeIsrc(value))
    ? null
    : "An ISRC is 12 characters: country (2 letters), registrant (3 letters or digits), year (2 digits) and number (5 digits), like USBL12600001.";
}

/** "T3452468003" or "t-345.246.800-3" -> "T-345.246.800-3". */
export function normalizeIswc(value: string): string {
  const digits = value.replace(/[^0-9]/g, "");
  if (!/^[Tt]/.test(value.trim()) || digits.length !== 10) return value.trim();
  return `T-${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits[9]}`;
}

/** ISWC check digit: 1 + the sum of each work digit times its position, then to the next ten. */
export function iswcCheckDigit(workDigits: string): number {
  let sum = 1;
  for (let i = 0; i < workDigits.length; i++) sum += (i + 1) * Number(workDigits[i]);
  return (10 - (sum % 10)) % 10;
}

export function iswcProblem(value: string): string | null {
  const code = normalizeIswc(value);
  const match = /^T-(\d{3})\.(\d{3})\.(\d{3})-(\d)$/.exec(code);
  if (!match) return "An ISWC looks like T-345.246.800-3.";
  const expected = iswcCheckDigit(`${match[1]}${match[2]}${match[3]}`);
  return Number(match[4]) === expected ? null : `The ISWC's check digit is wrong: expected ${expected}.`;
}

/**
 * The next code of a range the platform owns (config), when a member has none: a UPC from an 11-digit
 * prefix-and-counter body with its check digit, or an ISRC from its 7-character stem and a 5-digit number.
 * The caller supplies the last number it used, read and advanced in one transaction.
 */
export function upcFromRange(prefix: string, number: number): string {
  const body = `${prefix}${String(number).padStart(11 - prefix.length, "0")}`;
  if (!/^\d{11}$/.test(body)) throw new RangeError(`UPC range exhausted or malformed: ${prefix} + ${number}`);
  return `${body}${gs1CheckDigit(body)}`;
}

export function isrcFromRange(stem: string, number: number): string {
  const code = `${normalizeIsrc(stem)}${String(number).padStart(5, "0")}`;
  if (isrcProblem(code) || number > 99_999) throw new RangeError(`ISRC range exhausted or malformed: ${stem} + ${number}`);
  return code;
}
