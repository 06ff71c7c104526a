CREATE TABLE "card_figures" (
	"card_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"spent_month" integer NOT NULL,
	"spent" bigint NOT NULL,
	"window_day" integer NOT NULL,
	"authorised" integer NOT NULL,
	"declined" integer NOT NULL,
	"authorised_before" integer[] NOT NULL,
	"declined_before" integer[] NOT NULL,
	"last_used_at" timestamp (6) with time zone
);
--> statement-breakpoint
CREATE TABLE "card_spend_days" (
	"card_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"currency" text NOT NULL,
	"merchant_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"amount" bigint NOT NULL,
	"count" integer NOT NULL,
	"declined" integer NOT NULL,
	CONSTRAINT "card_spend_days_card_id_day_currency_pk" PRIMARY KEY("card_id","day","currency")
);
--> statement-breakpoint
ALTER TABLE "card_figures" ADD CONSTRAINT "card_figures_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "card_spend_days" ADD CONSTRAINT "card_spend_days_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- the spending summary's range of an account's days, carrying what it filters on and sums: read from the index alone
CREATE INDEX "card_spend_days_account_day" ON "card_spend_days" USING btree ("account_id","day")
  INCLUDE ("merchant_id", "currency", "card_id", "amount", "count", "declined");--> statement-breakpoint
-- What one statement changed of a card's authorisations on one China day: + for rows written, − for rows
-- as they were before an update or a delete.
CREATE TYPE "card_figures_change" AS (
  "card_id" uuid,
  "account_id" uuid,
  "merchant_id" uuid,
  "currency" text,
  "day" integer,
  "spent" bigint,
  "asked" integer,
  "authorised" integer,
  "declined" integer,
  "last_used" timestamptz
);--> statement-breakpoint
-- Adds a statement's changes to card_spend_days and card_figures (schema/spending.ts says what each holds).
-- Every writer of a card's authorisation holds the card's row locked, so no two statements change one card's figures at once.
CREATE FUNCTION "card_figures_add"(changes card_figures_change[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c record;
  f card_figures%ROWTYPE;
  written card_figures[] := '{}';
  card uuid;
  of_month integer;
  k integer;
BEGIN
  INSERT INTO card_spend_days AS d (card_id, day, currency, merchant_id, account_id, amount, count, declined)
    SELECT x.card_id, x.day, x.currency, (array_agg(x.merchant_id))[1], (array_agg(x.account_id))[1], sum(x.spent), sum(x.asked), sum(x.declined)
    FROM unnest(changes) x GROUP BY x.card_id, x.day, x.currency
    HAVING sum(x.spent) <> 0 OR sum(x.asked) <> 0 OR sum(x.declined) <> 0
  ON CONFLICT (card_id, day, currency) DO UPDATE
    SET amount = d.amount + excluded.amount, count = d.count + excluded.count, declined = d.declined + excluded.declined;
  -- a day whose last authorisation went is no group of the summary
  DELETE FROM card_spend_days d USING unnest(changes) x
    WHERE x.asked < 0 AND d.card_id = x.card_id AND d.day = x.day AND d.currency = x.currency AND d.count = 0;

  -- card by card, its days in order; each card's row written once
  FOR c IN
    SELECT x.card_id, (array_agg(x.account_id))[1] AS account_id, x.day, sum(x.spent) AS spent,
      sum(x.authorised)::integer AS authorised, sum(x.declined)::integer AS declined, max(x.last_used) AS last_used
    FROM unnest(changes) x GROUP BY x.card_id, x.day
    HAVING sum(x.spent) <> 0 OR sum(x.asked) <> 0 OR sum(x.authorised) <> 0 OR sum(x.declined) <> 0
    ORDER BY x.card_id, x.day
  LOOP
    IF card IS DISTINCT FROM c.card_id THEN
      IF card IS NOT NULL THEN
        written := written || f;
      END IF;
      card := c.card_id;
      SELECT * INTO f FROM card_figures WHERE card_id = c.card_id FOR UPDATE;
      IF NOT FOUND THEN
        f.card_id := c.card_id;
        f.account_id := c.account_id;
        f.spent_month := -1;
        f.spent := 0;
        f.window_day := c.day - 30;
        f.authorised := 0;
        f.declined := 0;
        f.authorised_before := array_fill(0, ARRAY[30]);
        f.declined_before := array_fill(0, ARRAY[30]);
        f.last_used_at := NULL;
      END IF;
    END IF;
    of_month := extract(year from date '1970-01-01' + c.day)::integer * 12 + extract(month from date '1970-01-01' + c.day)::integer - 1;
    IF of_month > f.spent_month THEN
      f.spent_month := of_month;
      f.spent := c.spent;
    ELSIF of_month = f.spent_month THEN
      f.spent := f.spent + c.spent;
    END IF;
    IF c.day > f.window_day THEN
      -- the days up to c.day enter the ring: nothing was counted on them yet
      FOR k IN greatest(f.window_day + 1, c.day - 29) .. c.day LOOP
        f.authorised_before[k % 30 + 1] := f.authorised;
        f.declined_before[k % 30 + 1] := f.declined;
      END LOOP;
      f.window_day := c.day;
    END IF;
    IF c.authorised <> 0 OR c.declined <> 0 THEN
      -- counted on c.day: before each later day of the ring
      FOR k IN greatest(c.day + 1, f.window_day - 29) .. f.window_day LOOP
        f.authorised_before[k % 30 + 1] := f.authorised_before[k % 30 + 1] + c.authorised;
        f.declined_before[k % 30 + 1] := f.declined_before[k % 30 + 1] + c.declined;
      END LOOP;
      f.authorised := f.authorised + c.authorised;
      f.declined := f.declined + c.declined;
    END IF;
    f.last_used_at := greatest(f.last_used_at, c.last_used);
  END LOOP;
  IF card IS NOT NULL THEN
    written := written || f;
    INSERT INTO card_figures SELECT * FROM unnest(written)
      ON CONFLICT (card_id) DO UPDATE SET spent_month = excluded.spent_month, spent = excluded.spent, window_day = excluded.window_day,
        authorised = excluded.authorised, declined = excluded.declined, authorised_before = excluded.authorised_before,
        declined_before = excluded.declined_before, last_used_at = excluded.last_used_at;
  END IF;
END
$$;--> statement-breakpoint
-- A card transaction as it changes the figures: sign 1 for a row written, -1 for a row as it was before.
CREATE FUNCTION "card_figures_of"(
  card_id uuid, account_id uuid, merchant_id uuid, currency text, status text, amount bigint,
  authorization_id text, decline_code text, created_at timestamptz, sign integer
) RETURNS card_figures_change LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(card_id, account_id, merchant_id, currency,
    -- the China day (UTC+8) as days since 1970-01-01, as the spending summary groups the rows
    ((floor(extract(epoch from created_at))::bigint + 28800) / 86400)::integer,
    sign * CASE WHEN status IN ('PENDING', 'CLOSED') THEN amount ELSE 0 END, sign,
    sign * CASE WHEN authorization_id IS NOT NULL THEN 1 ELSE 0 END, sign * CASE WHEN decline_code IS NOT NULL THEN 1 ELSE 0 END,
    CASE WHEN sign > 0 THEN created_at END)::card_figures_change
$$;--> statement-breakpoint
CREATE FUNCTION "card_transactions_figures_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes card_figures_change[];
BEGIN
  changes := ARRAY(
    SELECT ROW(x.card_id, (array_agg(x.account_id))[1], (array_agg(x.merchant_id))[1], x.currency, x.day, sum(x.spent)::bigint,
        sum(x.asked)::integer, sum(x.authorised)::integer, sum(x.declined)::integer, max(x.last_used))::card_figures_change
    FROM (SELECT y.* FROM new_rows r, LATERAL card_figures_of(r.card_id, r.account_id, r.merchant_id, r.currency, r.status, r.amount, r.authorization_id, r.decline_code, r.created_at, 1) y
      WHERE r.type = 'CONSUME') x
    GROUP BY x.card_id, x.currency, x.day);
  IF cardinality(changes) > 0 THEN
    PERFORM card_figures_add(changes);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "card_transactions_figures_updated"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes card_figures_change[];
BEGIN
  changes := ARRAY(
    SELECT ROW(x.card_id, (array_agg(x.account_id))[1], (array_agg(x.merchant_id))[1], x.currency, x.day, sum(x.spent)::bigint,
        sum(x.asked)::integer, sum(x.authorised)::integer, sum(x.declined)::integer, max(x.last_used))::card_figures_change
    FROM (SELECT y.* FROM old_rows o, LATERAL card_figures_of(o.card_id, o.account_id, o.merchant_id, o.currency, o.status, o.amount, o.authorization_id, o.decline_code, o.created_at, -1) y
      WHERE o.type = 'CONSUME'
      UNION ALL
      SELECT y.* FROM new_rows r, LATERAL card_figures_of(r.card_id, r.account_id, r.merchant_id, r.currency, r.status, r.amount, r.authorization_id, r.decline_code, r.created_at, 1) y
      WHERE r.type = 'CONSUME') x
    GROUP BY x.card_id, x.currency, x.day);
  IF cardinality(changes) > 0 THEN
    PERFORM card_figures_add(changes);
    -- a card's latest authorisation moved or went: read again
    UPDATE card_figures f SET last_used_at = (SELECT max(t.created_at) FROM card_transactions t WHERE t.card_id = f.card_id AND t.type = 'CONSUME')
      WHERE f.card_id IN (SELECT o.card_id FROM old_rows o LEFT JOIN new_rows r ON r.id = o.id
        WHERE o.type = 'CONSUME' AND (r.type <> 'CONSUME' OR r.card_id <> o.card_id OR r.created_at <> o.created_at));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "card_transactions_figures_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes card_figures_change[];
BEGIN
  changes := ARRAY(
    SELECT ROW(x.card_id, (array_agg(x.account_id))[1], (array_agg(x.merchant_id))[1], x.currency, x.day, sum(x.spent)::bigint,
        sum(x.asked)::integer, sum(x.authorised)::integer, sum(x.declined)::integer, max(x.last_used))::card_figures_change
    FROM (SELECT y.* FROM old_rows o, LATERAL card_figures_of(o.card_id, o.account_id, o.merchant_id, o.currency, o.status, o.amount, o.authorization_id, o.decline_code, o.created_at, -1) y
      WHERE o.type = 'CONSUME') x
    GROUP BY x.card_id, x.currency, x.day);
  IF cardinality(changes) > 0 THEN
    PERFORM card_figures_add(changes);
    UPDATE card_figures f SET last_used_at = (SELECT max(t.created_at) FROM card_transactions t WHERE t.card_id = f.card_id AND t.type = 'CONSUME')
      WHERE f.card_id IN (SELECT o.card_id FROM old_rows o WHERE o.type = 'CONSUME');
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- per statement, with its rows: a statement writing a million rows adds them to the figures grouped, card by card and day by day
CREATE TRIGGER "card_transactions_figures_inserted" AFTER INSERT ON "card_transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION card_transactions_figures_inserted();--> statement-breakpoint
CREATE TRIGGER "card_transactions_figures_updated" AFTER UPDATE ON "card_transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION card_transactions_figures_updated();--> statement-breakpoint
CREATE TRIGGER "card_transactions_figures_deleted" AFTER DELETE ON "card_transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION card_transactions_figures_deleted();--> statement-breakpoint
-- the cards' figures from the authorisations written before
SELECT card_figures_add(ARRAY(
    SELECT ROW(x.card_id, (array_agg(x.account_id))[1], (array_agg(x.merchant_id))[1], x.currency, x.day, sum(x.spent)::bigint,
        sum(x.asked)::integer, sum(x.authorised)::integer, sum(x.declined)::integer, max(x.last_used))::card_figures_change
    FROM (SELECT y.* FROM card_transactions t, LATERAL card_figures_of(t.card_id, t.account_id, t.merchant_id, t.currency, t.status, t.amount, t.authorization_id, t.decline_code, t.created_at, 1) y
      WHERE t.type = 'CONSUME') x
    GROUP BY x.card_id, x.currency, x.day));
