-- News and announcements (upstream/modules/content). News items and announcements carry a
-- `lang`: '' for every language, otherwise one of the 15 language codes. Seeded categories have a
-- `slug` whose name the locales translate (content.category_<slug>); an operator's own name clears it.
-- HTML is stored already sanitised (the seed is written within the allow-list of CONTENT_HTML).
CREATE TABLE news_categories (
  id INTEGER PRIMARY KEY,
  slug TEXT UNIQUE,
  name TEXT NOT NULL,
  sort INTEGER NOT NULL DEFAULT 0,
  published INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE news (
  id INTEGER PRIMARY KEY,
  category_id INTEGER NOT NULL REFERENCES news_categories(id),
  title TEXT NOT NULL,
  summary TEXT NOT NULL DEFAULT '',
  logo TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  lang TEXT NOT NULL DEFAULT '',
  published INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX news_by_time ON news (published, created_at);
CREATE TABLE notices (
  id INTEGER PRIMARY KEY,
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  lang TEXT NOT NULL DEFAULT '',
  is_policy INTEGER NOT NULL DEFAULT 0,
  published INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX notices_by_time ON notices (published, created_at);

INSERT INTO news_categories (id, slug, name, sort, published, created_at, updated_at) VALUES
  (1, 'market', 'Market commentary', 1, 1, 1790812800000, 1790812800000),
  (2, 'company', 'Company news', 2, 1, 1790812800000, 1790812800000),
  (3, 'education', 'Education', 3, 1, 1790812800000, 1790812800000);

INSERT INTO news (category_id, title, summary, logo, content, lang, published, created_at, updated_at) VALUES
  (1, 'Dollar steadies ahead of the central bank decision', 'The dollar held its range as traders waited for the rate decision and the statement that follows it.', 'markets-chart.svg', '<p>The US dollar traded in a narrow range against the major currencies as markets waited for this week''s rate decision.</p><p>Traders will watch the statement for any change in the language on inflation. A firmer tone could lift the dollar; a softer one could weigh on it.</p><h3>What to watch</h3><ul><li>EUR/USD support near the recent lows</li><li>USD/JPY reaction to long-term yields</li></ul>', '', 1, 1790841600000, 1790841600000),
  (1, 'Gold near record as investors seek safety', 'Gold traded close to its record high, supported by lower yields and steady central bank buying.', 'markets-gold.svg', '<p>Gold stayed close to its record high during the session. Lower bond yields and steady purchases by central banks kept demand firm.</p><p>Silver followed gold higher but with larger swings, as it often does.</p>', '', 1, 1790928000000, 1790928000000),
  (1, 'Oil slips as inventories rise', 'Crude prices eased after a larger than expected build in stockpiles.', 'markets-candles.svg', '<p>Oil prices eased after weekly data showed a larger build in crude inventories than analysts expected.</p><p>Both benchmarks remain inside the range of the past month.</p>', '', 1, 1791014400000, 1791014400000),
  (1, 'Tech shares lead the index rebound', 'Large technology companies led a broad rebound in US stock indices.', 'markets-chart.svg', '<p>US indices rebounded, led by large technology companies after strong quarterly results.</p><blockquote>Earnings season has so far beaten low expectations.</blockquote>', '', 1, 1791100800000, 1791100800000),
  (1, 'Bitcoin volatility returns after quiet month', 'Bitcoin moved sharply in both directions after weeks of calm trading.', 'markets-candles.svg', '<p>After a quiet month, bitcoin swung sharply in both directions within a single session.</p><p>Weekend liquidity is thinner, which can make moves larger.</p>', '', 1, 1791187200000, 1791187200000),
  (2, 'New instruments added to the platform', 'Three new stock CFDs and one commodity are now available to trade.', 'company-app.svg', '<p>We have added new instruments: three US stock CFDs and one commodity. You will find them in the market list.</p><p>Trading hours and leverage for each instrument are shown on its page.</p>', '', 1, 1791273600000, 1791273600000),
  (2, 'Planned maintenance on Sunday', 'The service will be unavailable for a short time on Sunday for planned maintenance.', 'company-office.svg', '<p>We will carry out planned maintenance on Sunday between 02:00 and 03:00 UTC. Trading, deposits and withdrawals will be unavailable during this time.</p><p>Open positions are not affected.</p>', '', 1, 1791360000000, 1791360000000),
  (2, 'Faster withdrawals to bank accounts', 'Bank withdrawals are now reviewed several times a day.', 'company-office.svg', '<p>Bank withdrawals are now reviewed several times a day, so most requests are paid sooner.</p>', '', 1, 1791446400000, 1791446400000),
  (2, 'Our app now speaks 15 languages', 'The app is now available in fifteen languages.', 'company-app.svg', '<p>You can now use the app in fifteen languages. Choose yours on the language page in your user centre.</p>', '', 1, 1791532800000, 1791532800000),
  (3, 'What is leverage?', 'Leverage lets you open a larger position with a smaller deposit, and it makes losses larger too.', 'education-book.svg', '<p><strong>Leverage</strong> lets you open a position larger than your margin. With leverage of 100, a margin of 100 USD opens a position worth 10,000 USD.</p><p>Profits and losses are calculated on the whole position, so a small price move can have a large effect on your account.</p>', '', 1, 1791619200000, 1791619200000),
  (3, 'How stop loss and take profit work', 'Two orders that close a position for you at a price you choose.', 'education-risk.svg', '<p>A <em>stop loss</em> closes your position when the price moves against you to a level you set. A <em>take profit</em> closes it when the price reaches your target.</p><ol><li>Set them when you open the position, or later.</li><li>They are executed at the next available price.</li></ol>', '', 1, 1791705600000, 1791705600000),
  (3, 'Understanding margin and margin level', 'Margin level tells you how close your account is to a stop out.', 'education-book.svg', '<p>Your <strong>margin level</strong> is your equity divided by the margin in use. When it falls too low, positions may be closed to protect your account.</p>', '', 1, 1791792000000, 1791792000000),
  (3, 'Managing risk: five simple rules', 'Sensible position sizes and a plan before each trade.', 'education-risk.svg', '<ol><li>Never risk more than you can afford to lose.</li><li>Decide your exit before you enter.</li><li>Use stop losses.</li><li>Keep position sizes small.</li><li>Keep a trading journal.</li></ol>', '', 1, 1791878400000, 1791878400000),
  (1, '美元於議息前窄幅上落', '市場等待央行議息結果，美元於窄幅內徘徊。', 'markets-chart.svg', '<p>市場等待本週議息結果，美元兌主要貨幣於窄幅內上落。</p>', 'hk', 1, 1791964800000, 1791964800000),
  (1, 'Le dollar stable avant la décision de la banque centrale', 'Le dollar évolue dans une fourchette étroite en attendant la décision sur les taux.', 'markets-chart.svg', '<p>Le dollar américain évolue dans une fourchette étroite face aux principales devises, dans l''attente de la décision sur les taux de cette semaine.</p>', 'fr', 1, 1791964800000, 1791964800000);

INSERT INTO notices (title, content, lang, is_policy, published, created_at, updated_at) VALUES
  ('服務地區限制通告', '<p>基於政策原因，本平台不向若干國家及地區的居民提供服務。</p><p>如你居於受限制地區，請勿開立帳戶或使用本服務。如有疑問，請聯絡客戶服務。</p>', 'hk', 1, 1, 1790812800000, 1790812800000),
  ('Notice on restricted countries', '<p>For policy reasons, our services are not provided to residents of certain countries and regions.</p><p>If you live in a restricted country or region, please do not open an account or use the service. If you have questions, contact customer service.</p>', 'en', 1, 1, 1790812800000, 1790812800000),
  ('サービス提供地域の制限について', '<p>ポリシー上の理由により、一部の国および地域の居住者には本サービスを提供しておりません。</p><p>対象地域にお住まいの方は、口座の開設およびサービスのご利用をお控えください。ご不明な点はカスタマーサポートまでお問い合わせください。</p>', 'jp', 1, 1, 1790812800000, 1790812800000),
  ('서비스 제한 국가 안내', '<p>정책상의 이유로 일부 국가 및 지역의 거주자에게는 서비스를 제공하지 않습니다.</p><p>제한 지역에 거주하시는 경우 계정을 개설하거나 서비스를 이용하지 마십시오. 문의 사항은 고객 센터로 연락해 주세요.</p>', 'kr', 1, 1, 1790812800000, 1790812800000),
  ('ประกาศเรื่องประเทศที่ถูกจำกัดการให้บริการ', '<p>ด้วยเหตุผลด้านนโยบาย เราไม่ให้บริการแก่ผู้ที่พำนักอยู่ในบางประเทศและบางภูมิภาค</p><p>หากคุณพำนักอยู่ในประเทศหรือภูมิภาคที่ถูกจำกัด โปรดอย่าเปิดบัญชีหรือใช้บริการ หากมีคำถาม โปรดติดต่อฝ่ายบริการลูกค้า</p>', 'th', 1, 1, 1790812800000, 1790812800000),
  ('Thông báo về các quốc gia bị hạn chế', '<p>Vì lý do chính sách, chúng tôi không cung cấp dịch vụ cho cư dân của một số quốc gia và khu vực.</p><p>Nếu bạn sống tại quốc gia hoặc khu vực bị hạn chế, vui lòng không mở tài khoản hoặc sử dụng dịch vụ. Nếu có thắc mắc, hãy liên hệ bộ phận chăm sóc khách hàng.</p>', 'vn', 1, 1, 1790812800000, 1790812800000),
  ('Avis sur les pays soumis à restriction', '<p>Pour des raisons de politique, nos services ne sont pas proposés aux résidents de certains pays et régions.</p><p>Si vous résidez dans un pays ou une région concerné, veuillez ne pas ouvrir de compte ni utiliser le service. Pour toute question, contactez le service client.</p>', 'fr', 1, 1, 1790812800000, 1790812800000),
  ('Hinweis zu eingeschränkten Ländern', '<p>Aus regulatorischen Gründen bieten wir unsere Dienste Einwohnern bestimmter Länder und Regionen nicht an.</p><p>Wenn Sie in einem betroffenen Land oder einer betroffenen Region wohnen, eröffnen Sie bitte kein Konto und nutzen Sie den Dienst nicht. Bei Fragen wenden Sie sich an den Kundenservice.</p>', 'de', 1, 1, 1790812800000, 1790812800000),
  ('Уведомление о странах с ограничениями', '<p>По соображениям политики компании наши услуги не предоставляются жителям некоторых стран и регионов.</p><p>Если вы проживаете в стране или регионе с ограничениями, пожалуйста, не открывайте счёт и не пользуйтесь сервисом. По всем вопросам обращайтесь в службу поддержки.</p>', 'ru', 1, 1, 1790812800000, 1790812800000),
  ('Aviso sobre países restringidos', '<p>Por razones de política, no ofrecemos nuestros servicios a residentes de ciertos países y regiones.</p><p>Si vives en un país o región restringido, no abras una cuenta ni uses el servicio. Si tienes preguntas, contacta con atención al cliente.</p>', 'spa', 1, 1, 1790812800000, 1790812800000),
  ('Aviso sobre países com restrição', '<p>Por motivos de política, nossos serviços não são oferecidos a residentes de determinados países e regiões.</p><p>Se você mora em um país ou região com restrição, não abra uma conta nem use o serviço. Em caso de dúvidas, fale com o atendimento ao cliente.</p>', 'pt', 1, 1, 1790812800000, 1790812800000),
  ('إشعار بشأن الدول المقيّدة', '<p>لأسباب تتعلق بالسياسات، لا نقدّم خدماتنا للمقيمين في بعض الدول والمناطق.</p><p>إذا كنت تقيم في دولة أو منطقة مقيّدة، يُرجى عدم فتح حساب أو استخدام الخدمة. إذا كانت لديك أسئلة، فتواصل مع خدمة العملاء.</p>', 'ar', 1, 1, 1790812800000, 1790812800000),
  ('Avviso sui paesi soggetti a restrizioni', '<p>Per motivi di policy, i nostri servizi non sono offerti ai residenti di alcuni paesi e regioni.</p><p>Se risiedi in un paese o in una regione soggetti a restrizioni, non aprire un conto e non utilizzare il servizio. Per domande, contatta l''assistenza clienti.</p>', 'it', 1, 1, 1790812800000, 1790812800000),
  ('Kısıtlı ülkeler hakkında duyuru', '<p>Politika gereği hizmetlerimiz bazı ülke ve bölgelerde ikamet edenlere sunulmamaktadır.</p><p>Kısıtlı bir ülke veya bölgede yaşıyorsanız lütfen hesap açmayın ve hizmeti kullanmayın. Sorularınız için müşteri hizmetleriyle iletişime geçin.</p>', 'tr', 1, 1, 1790812800000, 1790812800000),
  ('Pemberitahuan tentang negara yang dibatasi', '<p>Karena alasan kebijakan, layanan kami tidak tersedia bagi penduduk negara dan wilayah tertentu.</p><p>Jika Anda tinggal di negara atau wilayah yang dibatasi, jangan membuka akun atau menggunakan layanan ini. Jika ada pertanyaan, hubungi layanan pelanggan.</p>', 'id', 1, 1, 1790812800000, 1790812800000),
  ('New instruments available', '<p>Three new stock CFDs and one commodity are now available. See the market list for their trading hours.</p>', 'en', 0, 1, 1791244800000, 1791244800000),
  ('Planned maintenance on Sunday', '<p>The service will be unavailable on Sunday between 02:00 and 03:00 UTC for planned maintenance. Open positions are not affected.</p>', 'en', 0, 1, 1791331200000, 1791331200000);
