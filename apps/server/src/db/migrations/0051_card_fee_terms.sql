-- A card keeps the fee terms it was opened under: existing cards take their product's terms as they are now.
ALTER TABLE "cards" ADD COLUMN "topup_fee_rate" text;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "topup_fee_fixed" bigint;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "topup_fee_min" bigint;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "topup_fee_max" bigint;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "decline_fee" bigint;--> statement-breakpoint
UPDATE "cards" SET "topup_fee_rate" = p."topup_fee_rate", "topup_fee_fixed" = p."topup_fee_fixed", "topup_fee_min" = p."topup_fee_min",
  "topup_fee_max" = p."topup_fee_max", "decline_fee" = p."decline_fee"
  FROM "card_products" p WHERE p."id" = "cards"."product_id";--> statement-breakpoint
ALTER TABLE "cards" ALTER COLUMN "topup_fee_rate" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ALTER COLUMN "topup_fee_fixed" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ALTER COLUMN "decline_fee" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_fee_terms" CHECK ("cards"."topup_fee_fixed" >= 0 and "cards"."decline_fee" >= 0);
