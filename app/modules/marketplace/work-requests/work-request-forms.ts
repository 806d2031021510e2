import { z } from "zod";
import type { MarketplaceService } from "~/db/schema";
import { dollarsField } from "~/modules/ledger/money";
import { LIMITS, SERVICE_LABELS } from "../marketplace-rules";

/**
 * The work request and estimate forms' schemas, shared by the pages (Conform on the client) and the
 * actions (parseForm on the server). Money is typed in dollars and becomes cents here; points are typed in %
 * and become basis points. The services validate again (their rules are the source of truth) and their
 * field errors are mapped back onto these fields by `FIELD_OF_SERVICE`.
 */

/** The services in form order (from the labels: no database schema in the browser bundle). */
export const SERVICES = Object.keys(SERVICE_LABELS) as [MarketplaceService, ...MarketplaceService[]];

export const SERVICE_OPTIONS = SERVICES.map((s) => ({
  value: s,
  label: SERVICE_LABELS[s],
}));

const BUDGET_MESSAGE = "Enter a budget in dollars, such as 500 or 499.99.";
const LINE_AMOUNT_MESSAGE = "Enter an amount in dollars above $0.00.";

/**
 * A budget or line amount through money.ts's one parser: its cents, or the message for the field (a comma that
 * is not a thousands separator has its own: "10,00" is refused, not read as $1,000.00).
 */
function amountField(value: string | undefined, message: string) {
  return dollarsField(value, message, { min: 1n, max: BigInt(LIMITS.estimateMaxCents) });
}

/** "12.34" → 1234, or null when it is not an amount of dollars and cents in range. */
export function dollarsToCents(value: string | undefined): number | null {
  const field = amountField(value, BUDGET_MESSAGE);
  return "cents" in field ? Number(field.cents) : null;
}

/** "2.5" (%) → 250 basis points; null for empty; NaN when not a percentage with at most two decimals. */
export function percentToBps(value: string | undefined): number | null {
  if (!value) return null;
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(value.trim().replace(/%$/, ""));
  if (!match) return Number.NaN;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** A real calendar day as YYYY-MM-DD (2001-02-30 is not one). */
const isDate = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const time = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === v;
};

export const WorkRequestSchema = z.object({
  service: z.enum(SERVICES, { error: "Choose a service." }),
  description: z
    .string({ error: "Describe the work." })
    .min(LIMITS.descriptionMin, `Describe the work in ${LIMITS.descriptionMin} to ${LIMITS.descriptionMax} characters.`)
    .max(LIMITS.descriptionMax, `Describe the work in ${LIMITS.descriptionMin} to ${LIMITS.descriptionMax} characters.`),
  referenceLinks: z
    .string()
    .max(LIMITS.links * (LIMITS.linkMax + 2), "Too many reference links.")
    .optional(),
  budget: z
    .string({ error: BUDGET_MESSAGE })
    .max(20)
    .superRefine((v, ctx) => {
      const field = amountField(v, BUDGET_MESSAGE);
      if ("error" in field) ctx.addIssue({ code: "custom", message: field.error });
    }),
  deadline: z.string({ error: "Enter the deadline as a date." }).refine(isDate, "Enter the deadline as a date."),
  songId: z
    .string()
    .regex(/^\d{1,10}$/, "Choose one of your songs.")
    .optional(),
});

export const LINE_ITEM_ROWS = 5;

const LineItemSchema = z.object({
  description: z.string().max(LIMITS.lineItemDescriptionMax, `At most ${LIMITS.lineItemDescriptionMax} characters.`).optional(),
  amount: z.string().max(20).optional(),
});

export const EstimateSchema = z
  .object({
    intent: z.literal("estimate"),
    lineItems: z.array(LineItemSchema).max(LIMITS.lineItems).default([]),
    deliveryDays: z
      .number({ error: `Delivery takes 1 to ${LIMITS.deliveryDaysMax} days.` })
      .int(`Delivery takes 1 to ${LIMITS.deliveryDaysMax} days.`)
      .min(1, `Delivery takes 1 to ${LIMITS.deliveryDaysMax} days.`)
      .max(LIMITS.deliveryDaysMax, `Delivery takes 1 to ${LIMITS.deliveryDaysMax} days.`),
    revisionsIncluded: z
      .number({ error: `Include 0 to ${LIMITS.revisionsMax} revisions.` })
      .int(`Include 0 to ${LIMITS.revisionsMax} revisions.`)
      .min(0, `Include 0 to ${LIMITS.revisionsMax} revisions.`)
      .max(LIMITS.revisionsMax, `Include 0 to ${LIMITS.revisionsMax} revisions.`),
    points: z.string().max(10).optional(),
    expiresAt: z.string({ error: "Enter the expiry date." }).refine(isDate, "Enter the expiry date."),
    note: z.string().max(LIMITS.noteMax, `The note is at most ${LIMITS.noteMax} characters.`).optional(),
  })
  .superRefine((value, ctx) => {
    let filled = 0;
    value.lineItems.forEach((item, index) => {
      if (!item.description && !item.amount) return;
      filled++;
      if (!item.description)
        ctx.addIssue({
          code: "custom",
          path: ["lineItems", index, "description"],
          message: "Describe this line.",
        });
      const amount = amountField(item.amount, LINE_AMOUNT_MESSAGE);
      if ("error" in amount)
        ctx.addIssue({
          code: "custom",
          path: ["lineItems", index, "amount"],
          message: amount.error,
        });
    });
    if (filled === 0)
      ctx.addIssue({
        code: "custom",
        path: ["lineItems"],
        message: "Add at least one line item.",
      });
    const bps = percentToBps(value.points);
    if (bps !== null && (!Number.isInteger(bps) || bps < 1 || bps > LIMITS.pointsMaxBps)) {
      ctx.addIssue({
        code: "custom",
        path: ["points"],
        message: "Points are 0.01% to 50% of the song's master royalties, or empty.",
      });
    }
  });

/** The estimate form's values as the service's input (after EstimateSchema succeeded). */
export function estimateInputOf(value: z.infer<typeof EstimateSchema>) {
  return {
    lineItems: value.lineItems
      .filter((i) => i.description || i.amount)
      .map((i) => ({
        description: i.description ?? "",
        amountCents: dollarsToCents(i.amount) ?? 0,
      })),
    deliveryDays: value.deliveryDays,
    revisionsIncluded: value.revisionsIncluded,
    pointsBps: percentToBps(value.points),
    // The offer holds until the end of the chosen day (UTC).
    expiresAt: new Date(`${value.expiresAt}T23:59:59Z`),
    note: value.note ?? "",
  };
}

export const AnswerSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("accept"),
    estimateId: z.string().regex(/^\d{1,10}$/),
  }),
  z.object({
    intent: z.literal("decline"),
    estimateId: z.string().regex(/^\d{1,10}$/),
    reason: z.string().max(LIMITS.noteMax).optional(),
  }),
  z.object({
    intent: z.literal("revision"),
    estimateId: z.string().regex(/^\d{1,10}$/),
    note: z
      .string({ error: "Say what should change." })
      .min(LIMITS.reasonMin, `Say what should change (${LIMITS.reasonMin} to ${LIMITS.noteMax} characters).`)
      .max(LIMITS.noteMax, `Say what should change (${LIMITS.reasonMin} to ${LIMITS.noteMax} characters).`),
  }),
]);

export const CancelSchema = z.object({ intent: z.literal("cancel") });

/** Service field names → form field names. */
export const FIELD_OF_SERVICE: Record<string, string> = {
  pointsBps: "points",
  referenceLinks: "referenceLinks",
  budget: "budget",
};
