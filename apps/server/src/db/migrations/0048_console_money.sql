CREATE TABLE "approval_thresholds" (
	"merchant_id" uuid PRIMARY KEY NOT NULL,
	"amount" bigint NOT NULL,
	"updated_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"account_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"reason" text NOT NULL,
	"bank_txn_id" text,
	"idempotency_key" text NOT NULL,
	"needs_approval" boolean NOT NULL,
	"proposed_by" uuid NOT NULL,
	"approved_by" uuid,
	"rejected_by" uuid,
	"rejection_reason" text,
	"ledger_transaction_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (6) with time zone NOT NULL,
	"decided_at" timestamp (6) with time zone,
	CONSTRAINT "money_requests_kind" CHECK ("money_requests"."kind" in ('RECHARGE', 'DEDUCT', 'ADJUST', 'LINE_CREDIT')),
	CONSTRAINT "money_requests_status" CHECK ("money_requests"."status" in ('PENDING_APPROVAL', 'APPLIED', 'REJECTED')),
	CONSTRAINT "money_requests_amount" CHECK ("money_requests"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "approval_thresholds" ADD CONSTRAINT "approval_thresholds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_requests" ADD CONSTRAINT "money_requests_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_requests" ADD CONSTRAINT "money_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_requests" ADD CONSTRAINT "money_requests_proposed_by_operators_id_fk" FOREIGN KEY ("proposed_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_requests" ADD CONSTRAINT "money_requests_approved_by_operators_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_requests" ADD CONSTRAINT "money_requests_rejected_by_operators_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "money_requests_key_uq" ON "money_requests" USING btree ("merchant_id","proposed_by","idempotency_key");--> statement-breakpoint
CREATE INDEX "money_requests_merchant_created" ON "money_requests" USING btree ("merchant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "money_requests_line_pending_uq" ON "money_requests" USING btree ("merchant_id","bank_txn_id") WHERE "money_requests"."status" = 'PENDING_APPROVAL' and "money_requests"."bank_txn_id" is not null;