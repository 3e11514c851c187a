-- The columns that name an upload (a deposit's proof, a verification's two pictures) indexed, and
-- the uploads by age: the orphan sweep (upstream/modules/uploads) looks up, for each upload past its
-- grace period, whether anything names it, and the foreign keys look them up again when an upload
-- row is deleted. Unindexed, each of those lookups reads the whole table.
CREATE INDEX IF NOT EXISTS charges_proof ON charges(proof);
CREATE INDEX IF NOT EXISTS real_name_requests_front_pic ON real_name_requests(front_pic);
CREATE INDEX IF NOT EXISTS real_name_requests_reverse_pic ON real_name_requests(reverse_pic);
CREATE INDEX IF NOT EXISTS uploads_created ON uploads(created_at);
