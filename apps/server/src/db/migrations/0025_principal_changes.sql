-- Every change to what a signed-in caller is made of (a session ended or promoted, a member's role,
-- status, sign-in names, budget or trade password, an account's status or name) is told twice, both
-- naming the account and the writing transaction: a NOTIFY on principal_changed, which every server
-- process hears once the transaction commits, and a NOTICE to the writing connection at once (a server connection asks for it), so the
-- process that writes stops trusting what it holds before it answers. Each process keeps the callers
-- it has resolved (modules/sessions/principal-cache.ts) and drops an account's on either.
CREATE FUNCTION principal_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  IF TG_TABLE_NAME = 'accounts' THEN
    changed := COALESCE(NEW.id, OLD.id)::text;
  ELSE
    changed := COALESCE(NEW.account_id, OLD.account_id)::text;
  END IF;
  changed := changed || ':' || txid_current()::text;
  PERFORM pg_notify('principal_changed', changed);
  -- only to the server's own connections, which ask for it (db/engine.ts); psql and the operator's
  -- commands are not told
  IF current_setting('portal.change_notices', true) = 'on' THEN
    RAISE NOTICE 'principal_changed:%', changed;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_principal_changed AFTER UPDATE OF revoked_at, stage, token_hash, member_id, account_id OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION principal_changed();
--> statement-breakpoint
CREATE TRIGGER members_principal_changed AFTER UPDATE OF role, status, email, phone, phone_prefix, monthly_budget, trx_password_hash, account_id OR DELETE ON members
  FOR EACH ROW EXECUTE FUNCTION principal_changed();
--> statement-breakpoint
CREATE TRIGGER accounts_principal_changed AFTER UPDATE OF status, name OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION principal_changed();
