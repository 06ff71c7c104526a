-- A reveal grant is a member's: one member's access code no longer ends another's five minutes. A grant
-- made before is its session's member's (the owner's when it has no session).
ALTER TABLE "card_reveal_grants" ADD COLUMN "member_id" uuid;--> statement-breakpoint
UPDATE "card_reveal_grants" g SET "member_id" = COALESCE((SELECT s."member_id" FROM "sessions" s WHERE s."id" = g."session_id"), g."account_id");--> statement-breakpoint
ALTER TABLE "card_reveal_grants" ALTER COLUMN "member_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "card_reveal_grants" DROP CONSTRAINT "card_reveal_grants_pkey";--> statement-breakpoint
ALTER TABLE "card_reveal_grants" ADD CONSTRAINT "card_reveal_grants_account_id_member_id_pk" PRIMARY KEY("account_id","member_id");--> statement-breakpoint
ALTER TABLE "card_reveal_grants" ADD CONSTRAINT "card_reveal_grants_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;
