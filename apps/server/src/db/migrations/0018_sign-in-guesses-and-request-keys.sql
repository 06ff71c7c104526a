CREATE TABLE "request_keys" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"request_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "request_keys_account_id_key_pk" PRIMARY KEY("account_id","key")
);
--> statement-breakpoint
CREATE TABLE "unknown_sign_ins" (
	"merchant_id" uuid NOT NULL,
	"identifier_hash" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp (6) with time zone,
	"locked_until" timestamp (6) with time zone,
	CONSTRAINT "unknown_sign_ins_merchant_id_identifier_hash_pk" PRIMARY KEY("merchant_id","identifier_hash")
);
--> statement-breakpoint
ALTER TABLE "request_keys" ADD CONSTRAINT "request_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unknown_sign_ins" ADD CONSTRAINT "unknown_sign_ins_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;