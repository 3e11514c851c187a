-- The deposit channels and the bank account a fresh install is seeded with (011, 014) are
-- placeholders, not the broker's: shown to users, they would send real money to addresses nobody
-- here owns. They are hidden until an operator enters the broker's own details and shows them
-- (which a second operator approves). An entry an operator already changed is left alone.
UPDATE charge_channels SET enabled = 0
WHERE (currency_code, protocol_code, address) IN (
  VALUES
    ('USDT', 'TRC20', 'TYEdLavhN1T2vudp9z5dVpbb6MEJ7bMNd3'),
    ('USDT', 'ERC20', '0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063'),
    ('BTC', 'BTC', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'),
    ('ETH', 'ERC20', '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174')
);

UPDATE wire_accounts SET enabled = 0
WHERE bank_swift = 'FHBKSGSG' AND payee_account = '0012-345678-901'
  AND payee_name = 'Tradepost Client Funds Ltd';
