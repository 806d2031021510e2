-- Which entries touched which member's figures: the key of the per-member report cache (decision 028).
CREATE TABLE "member_ledger_changes" (
	"user_id" integer NOT NULL,
	"entry_id" bigint NOT NULL,
	CONSTRAINT "member_ledger_changes_pk" PRIMARY KEY("user_id","entry_id")
);
