ALTER TABLE "projects" DROP CONSTRAINT "projects_status_valid";--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "status" SET DEFAULT 'awaiting_funding';--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "funding_method" text;--> statement-breakpoint
-- Existing rows (hand-added to the generated DDL): funded projects were funded by a confirmed transfer or a
-- Stripe Checkout Session (its reference names it); open unfunded projects now wait as awaiting_funding.
UPDATE "projects" SET "funding_method" = CASE WHEN "funding_reference" LIKE 'Stripe Checkout %' THEN 'stripe' ELSE 'manual' END WHERE "funding_status" <> 'unfunded';--> statement-breakpoint
UPDATE "projects" SET "status" = 'awaiting_funding' WHERE "status" = 'in_progress' AND "funding_status" = 'unfunded';--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_funding_method_valid" CHECK ("projects"."funding_method" is null or "projects"."funding_method" in ('manual', 'stripe', 'balance'));--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_funded_has_method" CHECK ("projects"."funding_status" = 'unfunded' or "projects"."funding_method" is not null);--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_status_valid" CHECK ("projects"."status" in ('awaiting_funding', 'in_progress', 'awaiting_approval', 'revision_requested', 'completed', 'canceled'));