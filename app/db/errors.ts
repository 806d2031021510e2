/** Reading database errors, however Drizzle wraps them. */

/**
 * The unique index a PostgreSQL unique_violation (23505) broke: its name, "" when the driver does not
 * say, or null when the error is not a unique violation.
 */
export function violatedUniqueConstraint(error: unknown): string | null {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === "23505") return typeof constraint === "string" ? constraint : "";
  }
  return null;
}

export function isUniqueViolation(error: unknown): boolean {
  return violatedUniqueConstraint(error) !== null;
}
