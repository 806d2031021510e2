CREATE TABLE "legal_document_drafts" (
	"document_id" integer PRIMARY KEY NOT NULL,
	"content" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "legal_document_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "legal_document_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"document_id" integer NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"content" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_by" integer,
	CONSTRAINT "legal_document_versions_version_positive" CHECK ("legal_document_versions"."version" > 0)
);
--> statement-breakpoint
ALTER TABLE "legal_document_drafts" ADD CONSTRAINT "legal_document_drafts_document_id_legal_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."legal_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_document_drafts" ADD CONSTRAINT "legal_document_drafts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_document_versions" ADD CONSTRAINT "legal_document_versions_document_id_legal_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."legal_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_document_versions" ADD CONSTRAINT "legal_document_versions_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "legal_document_drafts_updated_by_idx" ON "legal_document_drafts" USING btree ("updated_by");--> statement-breakpoint
CREATE UNIQUE INDEX "legal_document_versions_document_version_unique" ON "legal_document_versions" USING btree ("document_id","version");--> statement-breakpoint
-- Existing data: the version in force of each published document is its first recorded version (what its
-- signatures agreed to); an unpublished document's text becomes its draft.
INSERT INTO "legal_document_versions" ("document_id", "version", "name", "content", "published_at")
	SELECT "id", "version", "name", "content", "updated_at" FROM "legal_documents" WHERE "published" AND "version" > 0;--> statement-breakpoint
INSERT INTO "legal_document_drafts" ("document_id", "content", "updated_at")
	SELECT "id", "content", "updated_at" FROM "legal_documents" WHERE NOT "published" AND "content" <> '';
