-- The most megapixels an uploaded image may have (checked from its header, before decoding).
INSERT INTO settings (key, value) VALUES ('upload.max_megapixels', '16')
  ON CONFLICT (key) DO NOTHING;
