DROP INDEX "ledger_accounts_owner_uq";--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD COLUMN "shard" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_owner_uq" ON "ledger_accounts" USING btree ("merchant_id","currency","kind","owner_id","shard");--> statement-breakpoint
-- the hot path names the merchant account's shard
DROP FUNCTION ledger_move_one(uuid, text, text, uuid, uuid, bigint, bigint, boolean, text, bigint, uuid, text, uuid, text, text, timestamptz, uuid, bigint, text, text, text, text, text, text);
--> statement-breakpoint
CREATE FUNCTION ledger_move_one(
  p_merchant uuid, p_currency text, p_kind text, p_owner uuid, p_holder uuid,
  p_balance_delta bigint, p_held_delta bigint, p_leaves boolean,
  p_house_kind text, p_house_shard smallint, p_house_delta bigint,
  p_transaction uuid, p_type text, p_transaction_holder uuid, p_reference text, p_memo text, p_at timestamptz,
  p_hold uuid, p_hold_amount bigint, p_hold_reference text,
  p_key text, p_request_hash text,
  p_operation text, p_amount text, p_created_at text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  c ledger_accounts%ROWTYPE;
  house_id uuid;
  house_balance bigint;
  answer jsonb;
BEGIN
  -- the customer's row first (every operation locks customer rows before the merchant's), with the checks in the condition
  UPDATE ledger_accounts la SET balance = la.balance + p_balance_delta, held = la.held + p_held_delta
   WHERE la.merchant_id = p_merchant AND la.currency = p_currency AND la.kind = p_kind AND la.owner_id = p_owner
     AND la.holder_id = p_holder
     AND la.balance + p_balance_delta - (la.held + p_held_delta) >= 0 AND la.held + p_held_delta >= 0
     AND NOT (p_leaves AND la.frozen)
  RETURNING la.* INTO c;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF p_transaction IS NOT NULL THEN
    INSERT INTO ledger_transactions (id, merchant_id, currency, type, holder_id, reference, memo, created_at)
      VALUES (p_transaction, p_merchant, p_currency, p_type, p_transaction_holder, p_reference, p_memo, p_at);
    IF p_balance_delta <> 0 THEN
      INSERT INTO ledger_postings (transaction_id, ledger_account_id, amount, balance_after, type, created_at)
        VALUES (p_transaction, c.id, p_balance_delta, c.balance, p_type, p_at);
    END IF;
    IF p_house_kind IS NOT NULL THEN
      UPDATE ledger_accounts SET balance = balance + p_house_delta
       WHERE merchant_id = p_merchant AND currency = p_currency AND kind = p_house_kind AND owner_id = p_merchant
         AND shard = p_house_shard
      RETURNING id, balance INTO house_id, house_balance;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'ledger: merchant account % % shard % missing', p_house_kind, p_currency, p_house_shard USING ERRCODE = 'P0002';
      END IF;
      INSERT INTO ledger_postings (transaction_id, ledger_account_id, amount, balance_after, type, created_at)
        VALUES (p_transaction, house_id, p_house_delta, house_balance, p_type, p_at);
    END IF;
  END IF;
  IF p_hold IS NOT NULL THEN
    INSERT INTO ledger_holds (id, merchant_id, ledger_account_id, holder_id, currency, amount, reference, created_at)
      VALUES (p_hold, p_merchant, c.id, c.holder_id, p_currency, p_hold_amount, p_hold_reference, p_at);
  END IF;
  answer := jsonb_build_object(
    'operation', p_operation, 'transactionId', p_transaction, 'holdId', p_hold, 'type', p_type,
    'currency', p_currency, 'amount', p_amount, 'createdAt', p_created_at,
    'accounts', jsonb_build_array(jsonb_build_object(
      'kind', c.kind, 'ownerId', c.owner_id, 'balance', ledger_decimal(c.balance), 'held', ledger_decimal(c.held),
      'available', ledger_decimal(c.balance - c.held))));
  INSERT INTO ledger_idempotency_keys (merchant_id, key, request_hash, answer) VALUES (p_merchant, p_key, p_request_hash, answer);
  RETURN answer;
END;
$$;
