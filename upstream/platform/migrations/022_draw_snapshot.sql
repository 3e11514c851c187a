-- A withdrawal keeps what it was requested with: the currency's code, network, USD price, rate and
-- fee type, and the destination (address, or bank, payee and account). Editing the catalogue or
-- the wallet afterwards never changes what the payout queue shows or what is paid.
ALTER TABLE draws ADD COLUMN currency_code TEXT;
ALTER TABLE draws ADD COLUMN currency_protocol TEXT;
ALTER TABLE draws ADD COLUMN usd_price TEXT;
ALTER TABLE draws ADD COLUMN draw_rate TEXT;
ALTER TABLE draws ADD COLUMN fee_type INTEGER;
ALTER TABLE draws ADD COLUMN dest_address TEXT;
ALTER TABLE draws ADD COLUMN dest_bank_name TEXT;
ALTER TABLE draws ADD COLUMN dest_payee_name TEXT;
ALTER TABLE draws ADD COLUMN dest_payee_account TEXT;

-- Requests made before this kept nothing of their own: the best record left is the catalogue and
-- wallet as they are now.
UPDATE draws SET
  currency_code = (SELECT code FROM draw_currencies c WHERE c.id = draws.draw_currency_id),
  currency_protocol = (SELECT protocol FROM draw_currencies c WHERE c.id = draws.draw_currency_id),
  usd_price = (SELECT usd_price FROM draw_currencies c WHERE c.id = draws.draw_currency_id),
  draw_rate = (SELECT draw_rate FROM draw_currencies c WHERE c.id = draws.draw_currency_id),
  fee_type = (SELECT fee_type FROM draw_currencies c WHERE c.id = draws.draw_currency_id),
  dest_address = (SELECT dc_address FROM draw_methods m WHERE m.id = draws.draw_method_id),
  dest_bank_name = (SELECT bank_name FROM draw_methods m WHERE m.id = draws.draw_method_id),
  dest_payee_name = (SELECT payee_name FROM draw_methods m WHERE m.id = draws.draw_method_id),
  dest_payee_account = (SELECT payee_account FROM draw_methods m WHERE m.id = draws.draw_method_id);
