CREATE TABLE "deposit_accounts" (
	"merchant_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"bank_name" text NOT NULL,
	"account_name" text NOT NULL,
	"account_number" text NOT NULL,
	"branch" text,
	"swift" text,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_accounts_merchant_id_currency_pk" PRIMARY KEY("merchant_id","currency")
);
--> statement-breakpoint
CREATE TABLE "deposit_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"member_id" uuid,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"file_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposit_references" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"merchant_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text DEFAULT 'BANK' NOT NULL,
	"source" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"credited_amount" bigint,
	"payer_name" text NOT NULL,
	"transferred_at" timestamp (6) with time zone NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"receipt_id" uuid,
	"member_id" uuid,
	"bank_txn_id" text,
	"chain_tx_id" text,
	"confirmations" integer,
	"confirmations_required" integer,
	"ledger_transaction_id" uuid,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp (6) with time zone,
	"mailed_at" timestamp (6) with time zone,
	CONSTRAINT "deposits_amount" CHECK ("deposits"."amount" > 0),
	CONSTRAINT "deposits_status" CHECK ("deposits"."status" in ('PENDING', 'CREDITED', 'REJECTED')),
	CONSTRAINT "deposits_kind" CHECK ("deposits"."kind" in ('BANK', 'USDT'))
);
--> statement-breakpoint
CREATE TABLE "deposit_statement_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"bank_txn_id" text NOT NULL,
	"booked_on" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"payer" text NOT NULL,
	"memo" text NOT NULL,
	"status" text NOT NULL,
	"deposit_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_statement_lines_status" CHECK ("deposit_statement_lines"."status" in ('MATCHED', 'UNMATCHED'))
);
--> statement-breakpoint
ALTER TABLE "charges_owed" ADD COLUMN "collected" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "charges_owed" ADD COLUMN "collected_at" timestamp (6) with time zone;--> statement-breakpoint
ALTER TABLE "deposit_accounts" ADD CONSTRAINT "deposit_accounts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_receipts" ADD CONSTRAINT "deposit_receipts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_receipts" ADD CONSTRAINT "deposit_receipts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_references" ADD CONSTRAINT "deposit_references_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_references" ADD CONSTRAINT "deposit_references_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_receipt_id_deposit_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."deposit_receipts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_statement_lines" ADD CONSTRAINT "deposit_statement_lines_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposit_statement_lines" ADD CONSTRAINT "deposit_statement_lines_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deposit_receipts_account" ON "deposit_receipts" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_references_code_uq" ON "deposit_references" USING btree ("merchant_id","reference");--> statement-breakpoint
CREATE INDEX "deposits_account_created" ON "deposits" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "deposits_pending" ON "deposits" USING btree ("merchant_id","account_id","currency","amount") WHERE "deposits"."status" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_receipt_uq" ON "deposits" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "deposits_unmailed" ON "deposits" USING btree ("decided_at") WHERE "deposits"."status" = 'CREDITED' and "deposits"."mailed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_bank_txn_uq" ON "deposits" USING btree ("merchant_id","bank_txn_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_chain_tx_uq" ON "deposits" USING btree ("merchant_id","chain_tx_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_statement_lines_bank_uq" ON "deposit_statement_lines" USING btree ("merchant_id","bank_txn_id");--> statement-breakpoint
CREATE INDEX "deposit_statement_lines_unmatched" ON "deposit_statement_lines" USING btree ("merchant_id") WHERE "deposit_statement_lines"."status" = 'UNMATCHED';--> statement-breakpoint
CREATE INDEX "charges_owed_open" ON "charges_owed" USING btree ("merchant_id","account_id","currency") WHERE "charges_owed"."collected" < "charges_owed"."amount";--> statement-breakpoint
ALTER TABLE "charges_owed" ADD CONSTRAINT "charges_owed_collected" CHECK ("charges_owed"."collected" >= 0 and "charges_owed"."collected" <= "charges_owed"."amount");