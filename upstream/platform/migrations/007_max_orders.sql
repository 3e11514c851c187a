-- Most pending and open orders an account may hold at once (a new order beyond it is refused).
INSERT OR IGNORE INTO settings (key, value) VALUES ('trade.max_orders', '200');
