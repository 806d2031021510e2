ALTER TABLE "projects" ADD COLUMN "checkout_session_id" text;
