-- Issue 13 part 6: a watch may POST each execution record to a webhook; its URL is fixed at
-- creation and mirrored here so lists show it (NULL: no webhook). The secret that signs deliveries
-- is the organization's (webhook_secrets), never stored per watch.
ALTER TABLE watches ADD COLUMN webhook_url TEXT;
