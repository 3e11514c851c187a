-- The seeded USDT/TRC20 deposit address of 011 had the shape of a TRON address but not its
-- base58check checksum, which addresses are now checked against. It is replaced by a valid one
-- (still a placeholder an operator sets to the broker's own address in the console); an address
-- an operator already changed is left alone.
UPDATE charge_channels SET address = 'TYEdLavhN1T2vudp9z5dVpbb6MEJ7bMNd3'
WHERE protocol_code = 'TRC20' AND address = 'TQrZ8tKfjqaPZQq4bKXvQ1YVn7Yw6zk6dE';
