-- Every change to a client or its agencies is announced on the channel identity_clients (the
-- client's id; empty after a TRUNCATE), delivered when the change commits. Each process's token
-- endpoint remembers the clients it looked up only while it listens to this channel
-- (server/identity/client-cache.ts), so a rotated secret or a changed scope takes effect at once
-- in every process, whoever made the change.
CREATE FUNCTION "notify_identity_client_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('identity_clients', '');
  ELSIF TG_TABLE_NAME = 'Client' THEN
    IF TG_OP = 'DELETE' THEN PERFORM pg_notify('identity_clients', OLD.id);
    ELSE PERFORM pg_notify('identity_clients', NEW.id);
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('identity_clients', OLD."clientId");
  ELSE
    PERFORM pg_notify('identity_clients', NEW."clientId");
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Client_notify_changed" AFTER INSERT OR UPDATE OR DELETE ON "Client"
  FOR EACH ROW EXECUTE FUNCTION "notify_identity_client_changed"();
CREATE TRIGGER "Client_notify_truncated" AFTER TRUNCATE ON "Client"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_identity_client_changed"();
CREATE TRIGGER "ClientAgency_notify_changed" AFTER INSERT OR UPDATE OR DELETE ON "ClientAgency"
  FOR EACH ROW EXECUTE FUNCTION "notify_identity_client_changed"();
CREATE TRIGGER "ClientAgency_notify_truncated" AFTER TRUNCATE ON "ClientAgency"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_identity_client_changed"();
