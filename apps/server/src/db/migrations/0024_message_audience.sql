ALTER TABLE "station_messages" ADD COLUMN "member_id" uuid;--> statement-breakpoint
ALTER TABLE "station_messages" ADD COLUMN "holder_member_id" uuid;