CREATE TABLE "issuer_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"received_at" timestamp (6) with time zone NOT NULL
);
