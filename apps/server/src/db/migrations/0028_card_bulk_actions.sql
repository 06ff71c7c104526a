CREATE TABLE "card_bulk_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"held_by" uuid,
	"action" text NOT NULL,
	"params" jsonb NOT NULL,
	"status" text NOT NULL,
	"total" integer NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"request_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp (6) with time zone NOT NULL,
	"finished_at" timestamp (6) with time zone,
	CONSTRAINT "card_bulk_actions_status" CHECK ("card_bulk_actions"."status" in ('PENDING', 'RUNNING', 'DONE')),
	CONSTRAINT "card_bulk_actions_counts" CHECK ("card_bulk_actions"."succeeded" >= 0 and "card_bulk_actions"."failed" >= 0 and "card_bulk_actions"."succeeded" + "card_bulk_actions"."failed" <= "card_bulk_actions"."total")
);
--> statement-breakpoint
CREATE TABLE "card_bulk_items" (
	"bulk_id" uuid NOT NULL,
	"card_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp (6) with time zone,
	"amount" bigint,
	"hold_id" uuid,
	"finished_at" timestamp (6) with time zone,
	CONSTRAINT "card_bulk_items_pkey" PRIMARY KEY("bulk_id","card_id"),
	CONSTRAINT "card_bulk_items_state" CHECK ("card_bulk_items"."state" in ('PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED'))
);
--> statement-breakpoint
ALTER TABLE "card_bulk_actions" ADD CONSTRAINT "card_bulk_actions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_bulk_actions" ADD CONSTRAINT "card_bulk_actions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_bulk_actions" ADD CONSTRAINT "card_bulk_actions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_bulk_items" ADD CONSTRAINT "card_bulk_items_bulk_id_card_bulk_actions_id_fk" FOREIGN KEY ("bulk_id") REFERENCES "public"."card_bulk_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_bulk_items" ADD CONSTRAINT "card_bulk_items_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "card_bulk_actions_key_uq" ON "card_bulk_actions" USING btree ("account_id","request_key");--> statement-breakpoint
CREATE INDEX "card_bulk_actions_account_created" ON "card_bulk_actions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "card_bulk_items_open" ON "card_bulk_items" USING btree ("bulk_id","position") WHERE state in ('PENDING', 'RUNNING');