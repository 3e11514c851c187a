-- The row count a write inside a batch must have (store/expect-changes.ts), checked by the server
-- in the same round trip as the batch's COMMIT (store/pg-worker.mjs writeBatch): a write that
-- changed another number of rows raises `message`, which aborts the batch before its COMMIT.
CREATE OR REPLACE FUNCTION tp_expect_rows(actual BIGINT, expected BIGINT, message TEXT)
RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  IF actual <> expected THEN
    RAISE EXCEPTION '%', message USING ERRCODE = 'P0001';
  END IF;
END
$$;
