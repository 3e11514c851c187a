-- The leader's fence (store/leader-lock.ts leaderFenceSql) as a function: every write transaction
-- of a leading node begins with it, and a function's body is compiled once per connection where
-- an anonymous DO block was compiled at each call (about a third of a millisecond a batch).
-- It raises TPL01 unless the connection `holder` (a backend pid) still holds the session advisory
-- lock `lock_key` (a bigint key below 2^32 is classid 0, objid KEY, objsubid 1 in pg_locks).
CREATE OR REPLACE FUNCTION tp_leader_fence(holder INTEGER, lock_key BIGINT)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = 0
      AND objid = lock_key AND objsubid = 1 AND pid = holder AND granted) THEN
    RAISE EXCEPTION 'this node no longer leads the order engine' USING ERRCODE = 'TPL01';
  END IF;
END
$$;
