-- An API key is a caller kept in memory as a session is (decisions 0012, 0013): every change to what a
-- key's call is checked against (revoked, rotated, its overlap, expiry, scopes, allow-list, its member or
-- account) is announced as a session's is, naming the key's account; its last use and its name are not.
-- The announcement now also names the account a row moved away from (an update of account_id), so the
-- callers kept of that account are let go as well.
CREATE OR REPLACE FUNCTION principal_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  account text;
  changed text;
  named text[];
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    named := ARRAY[COALESCE(NEW.id, OLD.id)::text];
  ELSIF TG_OP = 'UPDATE' THEN
    named := ARRAY[NEW.account_id::text];
    IF OLD.account_id IS DISTINCT FROM NEW.account_id THEN
      named := named || OLD.account_id::text;
    END IF;
  ELSE
    named := ARRAY[COALESCE(NEW.account_id, OLD.account_id)::text];
  END IF;
  FOREACH account IN ARRAY named LOOP
    changed := account || ':' || txid_current()::text;
    PERFORM pg_notify('principal_changed', changed);
    -- only to the server's own connections, which ask for it (db/engine.ts); psql and the operator's
    -- commands are not told
    IF current_setting('portal.change_notices', true) = 'on' THEN
      RAISE NOTICE 'principal_changed:%', changed;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_principal_changed
  AFTER UPDATE OF merchant_id, account_id, member_id, prefix, secret_hash, previous_prefix, previous_hash, previous_until, scopes, ip_allowlist, expires_at, revoked_at
  OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION principal_changed();
