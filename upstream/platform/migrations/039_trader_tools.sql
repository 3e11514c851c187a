-- Trader's tools on orders (modules/trading, trading-rules.md "Trailing stops, break-even, partial
-- closes and expiry"):
-- - trail_distance: a trailing stop's distance in price (NULL: none); the stop (stop_loss) follows
--   the price at this distance, only ever in the position's favour;
-- - trail_activation: the profit distance in price before the stop starts to trail (NULL: at once);
-- - break_even: the profit distance in price at which the stop moves to the entry price (NULL: none);
-- - expires_at: when a pending order is cancelled as expired (NULL: good until cancelled);
-- - parent_id: a part closed from an open position keeps the position's id here.
ALTER TABLE orders ADD COLUMN trail_distance REAL;
ALTER TABLE orders ADD COLUMN trail_activation REAL;
ALTER TABLE orders ADD COLUMN break_even REAL;
ALTER TABLE orders ADD COLUMN expires_at INTEGER;
ALTER TABLE orders ADD COLUMN parent_id INTEGER;
CREATE INDEX orders_parent ON orders(parent_id) WHERE parent_id IS NOT NULL;
