-- Companies (the service providers a visitor picks on /product in company mode) and the feedback
-- inbox. Companies are never deleted (a visitor's cookie may name one); `enabled` 0 hides one from
-- the search. `status` 0 lets visitors in; any other value sends them to `loss_url`.
CREATE TABLE companies (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  logo TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL DEFAULT '',
  subject TEXT NOT NULL DEFAULT '',
  registered_address TEXT NOT NULL DEFAULT '',
  location TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL DEFAULT 0,
  type INTEGER NOT NULL DEFAULT 0,
  loss_url TEXT NOT NULL DEFAULT '',
  enabled INTEGER NOT NULL DEFAULT 1,
  sort INTEGER NOT NULL DEFAULT 0
);

INSERT INTO companies (name, logo, url, subject, registered_address, location, email, type, sort) VALUES
  ('Harbour Bridge Capital Ltd', '/static/logos/company-harbour.svg', 'https://harbourbridge.example.com',
   'Introducing broker for retail forex and index CFDs', '18/F Central Tower, 28 Queen''s Road Central, Hong Kong',
   'Suite 1203, 9 Queen''s Road Central, Hong Kong', 'support@harbourbridge.example.com', 1, 10),
  ('Meridian Markets GmbH', '/static/logos/company-meridian.svg', 'https://meridian-markets.example.com',
   'Trading education and account services for German-speaking clients', 'Taunusanlage 8, 60329 Frankfurt am Main, Germany',
   'Neue Mainzer Straße 52, 60311 Frankfurt am Main, Germany', 'kontakt@meridian-markets.example.com', 1, 20),
  ('Lumen Asset Partners', '/static/logos/company-lumen.svg', 'https://lumenasset.example.com',
   'Portfolio advice and copy-trading signals', '1 Raffles Place, #44-01, Singapore 048616',
   '80 Robinson Road, #10-01, Singapore 068898', 'hello@lumenasset.example.com', 2, 30),
  ('Sakura Trade Services KK', '/static/logos/company-sakura.svg', 'https://sakura-trade.example.com',
   'Japanese-language onboarding and client support', '2-7-3 Marunouchi, Chiyoda-ku, Tokyo 100-0005, Japan',
   '1-9-1 Shibuya, Shibuya-ku, Tokyo 150-0002, Japan', 'info@sakura-trade.example.com', 1, 40),
  ('Atlas Payments SA', '/static/logos/company-atlas.svg', 'https://atlaspay.example.com',
   'Local deposit and withdrawal processing', 'Rue du Rhône 14, 1204 Genève, Switzerland',
   'Avenue de la Gare 10, 1003 Lausanne, Switzerland', 'ops@atlaspay.example.com', 3, 50),
  ('Cedar Point Brokers LLC', '/static/logos/company-cedar.svg', 'https://cedarpoint.example.com',
   'Client referral partner for the Gulf region', 'Gate Village 3, DIFC, Dubai, United Arab Emirates',
   'Office 402, Al Fattan Currency House, Dubai, United Arab Emirates', 'care@cedarpoint.example.com', 2, 60),
  ('Nova Fintech Ltda', '/static/logos/company-nova.svg', 'https://novafintech.example.com',
   'Portuguese-language trading community and webinars', 'Av. Paulista 1578, São Paulo - SP, 01310-200, Brazil',
   'Rua Funchal 418, São Paulo - SP, 04551-060, Brazil', 'contato@novafintech.example.com', 1, 70);

CREATE TABLE feedback (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id),
  message TEXT NOT NULL,
  contact TEXT NOT NULL DEFAULT '',
  lang TEXT NOT NULL DEFAULT '',
  handled INTEGER NOT NULL DEFAULT 0,
  handled_by TEXT,
  handled_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX feedback_by_time ON feedback (created_at DESC, id DESC);

INSERT INTO settings (key, value) VALUES
  ('is_main', '0'),
  ('complaint_email', 'complaints@example.com')
ON CONFLICT(key) DO NOTHING;
