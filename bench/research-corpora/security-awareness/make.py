"""Writes corpus.ndjson for the security awareness training development corpus (the text below is the
corpus; edit it here and rerun `python3 make.py`, then `python3 ../check.py .`). Every company, domain,
person, customer, investor and figure is fictional."""
import json, os

companies = [
    ("phishwarden.com", "Phishwarden", "Phishwarden is phishing simulation and security awareness training for mid-size companies, with a library of more than 900 modules.", "Security awareness training software", "Austin, Texas, United States", 2015, 420),
    ("baitwise.io", "Baitwise", "Baitwise sends phishing tests and short training videos to small businesses, with a free plan for small teams.", "Phishing simulation software", "Raleigh, North Carolina, United States", 2020, 85),
    ("cortilane.com", "Cortilane", "Cortilane sells compliance and security awareness courses (GDPR, HIPAA, PCI DSS, DORA, NIS2) to regulated organizations in Europe and North America.", "Compliance training software", "Dublin, Ireland", 2011, 260),
    ("heedra.com", "Heedra", "Heedra is a human risk management platform that scores each employee's security risk and nudges them in Slack and Microsoft Teams.", "Human risk management software", "Boulder, Colorado, United States", 2018, 150),
    ("sentryfold.com.au", "Sentryfold", "Sentryfold provides security awareness training mapped to Australian and New Zealand regulation, and since 2026 sells in the United States.", "Security awareness training software", "Melbourne, Victoria, Australia", 2014, 190),
    ("skepsy.com", "Skepsy", "Skepsy makes security awareness training as a streaming series of short episodes, sold directly and licensed to other platforms.", "Security awareness content", "Chicago, Illinois, United States", 2021, 48),
    ("harbinly.com", "Harbinly", "Harbinly is white-label security awareness training that managed service providers resell to their small-business clients.", "Security awareness training for MSPs", "Atlanta, Georgia, United States", 2017, 110),
]

S = []  # (url, title, publishedAt, content)
def src(url, title, date, *sentences):
    S.append((url, title, date, " ".join(sentences)))

# ---------------- Phishwarden ----------------
src("https://phishwarden.com/", "Phishwarden: security awareness training for mid-size companies", "2026-05-12",
    "Phishwarden is phishing simulation and security awareness training for mid-size companies, from 200 to 20,000 employees.",
    "More than 7,800 organizations use Phishwarden to train their people and see who clicks.",
    "Phishwarden customers see their phish-prone rate fall by an average of 64 percent in the first year, according to our 2025 benchmark of 3.1 million users across 5,200 customers.",
    "Admins choose from more than 900 training modules in 34 languages, and Phishwarden sends simulated phishing emails, texts and voice calls modeled on attacks seen in the last 90 days.",
    "The Report button sits in Outlook and Gmail, so an employee can flag a suspicious email with one click and the security team sees it within seconds.",
    "Users sync from Microsoft Entra ID, Google Workspace or Okta, and people who click a simulation are enrolled in a short course automatically.",
    "We are based in Austin, Texas, with offices in Denver and Belfast.")

src("https://phishwarden.com/pricing", "Phishwarden pricing: Essentials, Professional and Enterprise", "2026-03-30",
    "Phishwarden is priced per user per year, billed annually, with a minimum of 50 users.",
    "Essentials is $18 per user per year and includes phishing simulation, the Report button and 60 core training modules.",
    "Most mid-size companies pick Professional, which costs $29 per user per year and unlocks the full library of 900-plus modules, SMS and voice simulations, and automatic training for users who click.",
    "Enterprise runs $42 per user per year and adds SSO and SCIM provisioning, audit-ready compliance reports, a read-only API and a named customer success manager.",
    "Professional customers can add Warden Coach, our AI security coach, to the Professional plan for $6 per user per year, and it is included in Enterprise.",
    "On Essentials, Warden Coach costs $9 per user per year.",
    "Organizations with more than 5,000 users get volume pricing, and nonprofits and schools save 30 percent on any plan.",
    "Every plan starts with a free trial of 21 days that includes up to 100 users and three simulated campaigns.",
    "Multi-year agreements lock in today's price for up to three years.")

src("https://phishwarden.com/about", "About Phishwarden", "2026-02-18",
    "Phishwarden started in 2015, when Corinne Hadley was a penetration tester at a regional bank in San Antonio and found that her fake invoice emails fooled one employee in three.",
    "She built the first simulator on nights and weekends with Bram Oosterhuis, who is still our chief technology officer and now leads a product and engineering organization of about 140 people.",
    "Corinne leads Phishwarden as chief executive officer.",
    "Leland Pryor joined as chief financial officer in August 2024 from a publicly listed identity company.",
    "Tasha Grimsley is our chief revenue officer, and Vikram Sethuraman, our chief information security officer, runs the program that protects customer data.",
    "We are about 420 people today, in Austin, Denver and Belfast.",
    "Phishwarden is backed by Granite Arch Partners, Fallowfield Ventures and Tamsin Road Capital.")

src("https://phishwarden.com/press/phishwarden-raises-85-million-series-c", "Phishwarden raises $85 million Series C to build AI security coaching", "2025-06-03",
    "AUSTIN, Texas, June 3, 2025 -- Phishwarden, the security awareness training platform for mid-size companies, today announced an $85 million Series C led by Granite Arch Partners, with participation from existing investors Fallowfield Ventures and Tamsin Road Capital.",
    "The round brings Phishwarden's total funding to $142 million.",
    "Phishwarden will use the funding to build AI-driven coaching for employees and to grow in the United Kingdom and Ireland from its new Belfast office.",
    "Phishwarden's customer count grew 31 percent in 2024 to 6,500 organizations, and annual recurring revenue passed $70 million.",
    "\"Attackers now write better emails than most marketing teams, so training has to keep up every week, not every year,\" said Corinne Hadley, founder and CEO of Phishwarden.",
    "Granite Arch Partners partner Helena Marsh will join Phishwarden's board of directors.",
    "Phishwarden previously raised a $40 million Series B led by Fallowfield Ventures in 2022, a $13 million Series A led by Tamsin Road Capital in 2019 and a $4 million seed round in 2016.",
    "About Phishwarden: Phishwarden is headquartered in Austin, Texas, and has more than 300 employees.")

src("https://phishwarden.com/customers/ostrander-logistics", "Ostrander Logistics turns 2,400 employees into an early warning system", "2025-11-12",
    "Ostrander Logistics runs 22 distribution centers across the Midwest with about 2,400 employees, most of whom share warehouse terminals and read email on their phones.",
    "In 2024, a fake carrier invoice cost Ostrander $186,000 before its bank caught the fraud.",
    "Ostrander rolled out Phishwarden Professional to every employee in 10 days in January 2025, including Spanish-language training for warehouse staff.",
    "After 12 months, the share of employees who clicked a simulated phishing email dropped from 31 percent to 6 percent.",
    "Reporting went the other way: 58 percent of employees now report simulations with the Report button, up from 9 percent.",
    "\"Our people went from being the weak spot to being our early warning system,\" said Dolores Kwiatkowski, IT director at Ostrander Logistics.",
    "Ostrander had also looked at Baitwise but needed Spanish-language video and SMS simulations.")

src("https://phishwarden.com/changelog", "Phishwarden changelog", "2026-04-21",
    "April 21, 2026: Voice phishing simulations can now use a cloned voice of your own executive, with their written consent.",
    "March 9, 2026: Compliance reports for Enterprise include HIPAA and PCI DSS training evidence in one export.",
    "January 26, 2026: Warden Coach answers in Spanish, French and German.",
    "December 2, 2025: The admin console loads groups of more than 5,000 users up to four times faster.",
    "October 7, 2025: Warden Coach is generally available on all plans; Enterprise customers get it at no extra charge.",
    "August 18, 2025: QR code phishing templates for parking, parcel and payroll scams.")

src("https://phishwarden.com/blog/meet-warden-coach", "Meet Warden Coach, the security coach in your chat window", "2025-10-07",
    "For ten years we have taught people to report suspicious email, and for ten years the most common question our customers' employees asked was: is this one real?",
    "Warden Coach answers that question in Slack, Microsoft Teams and email, in plain language, within a few seconds.",
    "We tested it with 45 customers since May, and they saw 2.3 times as many reported phishing emails as customers without it.",
    "Warden Coach never reads anyone's mailbox; it sees only the messages an employee forwards to it.",
    "It is included in Enterprise, and on the other plans it is an add-on priced per user per year.",
    "Corinne Hadley, founder and CEO")

src("https://phishwarden.com/compare/phishwarden-vs-baitwise", "Phishwarden vs Baitwise", "2026-04-02",
    "Baitwise is built for small businesses that want simple phishing tests, and Phishwarden is built for mid-size companies that need training, reporting and compliance evidence.",
    "Baitwise's Team plan is $1.25 per user per month and its Business plan is $2.50 per user per month, which comes to $30 per user per year on monthly billing.",
    "Phishwarden Essentials, at $18 per user per year, already includes phishing simulation and 60 training modules, and Phishwarden Professional is $29 per user per year with the full library of 900-plus modules.",
    "Baitwise's library has about 120 short videos in English and Spanish; Phishwarden offers 34 languages.",
    "Baitwise has a free plan for up to 25 users, which Phishwarden does not.",
    "Baitwise prices are taken from its public pricing page in March 2026.")

# ---------------- Baitwise ----------------
src("https://baitwise.io/", "Baitwise: phishing tests your team will actually learn from", "2026-04-10",
    "Baitwise sends realistic phishing tests to your team and teaches the people who click, in two minutes, right when it matters.",
    "Built for small businesses with 10 to 500 employees, Baitwise takes about 15 minutes to set up with Microsoft 365 or Google Workspace.",
    "More than 3,100 small businesses test their teams with Baitwise.",
    "Baitwise is free for up to 25 users, forever.",
    "Our training library has about 120 short videos in English and Spanish.",
    "Baitwise is made in Raleigh, North Carolina.")

src("https://baitwise.io/pricing", "Baitwise pricing", "2026-03-01",
    "Baitwise is priced per user per month, and you can change plans or cancel in any month.",
    "Free covers up to 25 users with monthly phishing tests from 30 templates and a basic click report.",
    "Team is $1.25 per user per month and adds unlimited campaigns, the full template library and the Baitwise Report button for Outlook and Gmail.",
    "Business costs $2.50 per user per month and adds the video training library, Slack and Microsoft Teams alerts, and quarterly reports for your cyber insurer.",
    "Pay annually and save 20 percent: Team works out to $12 per user per year and Business to $24 per user per year.",
    "Managed service providers can resell Baitwise at 35 percent off list.",
    "There are no setup fees and no minimum number of users on paid plans.")

src("https://baitwise.io/blog/series-a", "We raised a Series A (and we're still not going to make you call sales)", "2026-02-17",
    "We've raised an $11 million Series A led by Corbel Ventures, and we're going to spend it on the thing customers ask for most: more training, in more languages.",
    "Blue Heron Seed, which led our $2.5 million seed round in 2021, is investing again, and so is Longspur Capital.",
    "The round brings our total funding to $13.5 million.",
    "When my co-founder Meera Castellanos and I started Baitwise, we were two people in a Raleigh apartment who thought a phishing test shouldn't need a sales call.",
    "Today we are 85 employees, and more than 3,100 small businesses use Baitwise.",
    "This year we will add French, German and Portuguese training and launch compliance courses for HIPAA and PCI DSS.",
    "Jonah Abernathy, co-founder and CEO")

src("https://baitwise.io/customers/carrow-and-pike", "Carrow & Pike: from insurer's request to first campaign in an afternoon", "2025-12-03",
    "Carrow & Pike is a 180-person law firm with offices in Richmond and Norfolk, Virginia.",
    "After a partner's mailbox was taken over in 2024, the firm's cyber insurer asked for proof of regular phishing training at renewal.",
    "Carrow & Pike started on Baitwise Business in June 2025 and sent its first campaign the same afternoon.",
    "In six months, the click rate on simulated phishing fell from 24 percent to 4 percent.",
    "At renewal the firm's cyber insurance premium went down 12 percent, which the IT manager puts down to Baitwise's quarterly insurer report.",
    "\"Setting it up took less time than our weekly partners' meeting,\" said Nadine Osterberg, IT manager at Carrow & Pike.")

# ---------------- Cortilane ----------------
src("https://cortilane.com/", "Cortilane: compliance and security awareness training", "2026-01-22",
    "Cortilane is compliance and security awareness training for regulated organizations in Europe and North America.",
    "2,900 organizations and 4.2 million learners take Cortilane courses on GDPR, HIPAA, PCI DSS, anti-bribery, workplace harassment and cyber security.",
    "Every course is available in 38 languages and is reviewed each year by our in-house legal team.",
    "Audit packs export completion records, quiz scores and policy attestations in the format regulators ask for, including for DORA and NIS2.",
    "Cortilane Phish adds simulated phishing campaigns to any plan.",
    "Cortilane is headquartered in Dublin, Ireland, with offices in Boston and Frankfurt.")

src("https://cortilane.com/pricing", "Cortilane plans and pricing", "2026-02-09",
    "Cortilane is priced per learner per year, in euros in Europe and in US dollars in North America.",
    "Awareness is €14 per learner per year, or $15 in North America, and covers the cyber security curriculum and Cortilane Phish.",
    "Compliance Suite costs €24 per learner per year in Europe and adds GDPR, anti-bribery, harassment and code-of-conduct courses with policy attestations.",
    "North American customers pay $26 per learner per year for it, with HIPAA and PCI DSS courses in place of GDPR.",
    "Regulated is €38 per learner per year ($41 in North America) and adds DORA and NIS2 modules, audit packs and a dedicated compliance adviser.",
    "Course authoring, for building your own courses in Cortilane, is an add-on at €2,400 a year.",
    "Compliance Suite and Regulated are sold on three-year agreements; Awareness can be bought for one year.",
    "The minimum order is 100 learners.")

src("https://cortilane.com/about", "About Cortilane", "2026-01-15",
    "Cortilane began in 2011 in a Dublin solicitor's office, where Declan Mulqueen and Orla Ferriter were tired of watching staff click through compliance slideshows without reading them.",
    "Their first course, on data protection, was bought by three Irish credit unions.",
    "Matthias Kronberg has led Cortilane as chief executive since 2023; he was previously chief operating officer of a German e-learning group.",
    "Declan is now chair of the board, and Orla leads the content and legal team as chief content officer.",
    "Since March 2024 Cortilane has been owned by Ironoak Equity.",
    "We are 260 people in Dublin, Boston and Frankfurt.")

src("https://cortilane.com/news/cortilane-to-join-ironoak-equity", "Cortilane to be acquired by Ironoak Equity", "2024-03-04",
    "DUBLIN, March 4, 2024 -- Cortilane, the compliance and security awareness training company, today announced that it has agreed to be acquired by Ironoak Equity, a private equity firm focused on European software.",
    "Terms of the transaction were not disclosed.",
    "Cortilane's founders will remain shareholders, and co-founder Declan Mulqueen will become chair of the board.",
    "Cortilane was founded in Dublin in 2011 and serves 2,400 organizations in 31 countries.",
    "Ironoak will fund Cortilane's expansion in North America and acquisitions of course libraries.",
    "The transaction is expected to close in the second quarter of 2024.")

src("https://cortilane.com/customers/bellhaven-health-partners", "Bellhaven Health Partners: one audit report instead of three systems", "2025-07-08",
    "Bellhaven Health Partners runs six hospitals and 40 clinics in Pennsylvania and Ohio, with about 11,000 staff.",
    "Before Cortilane, HIPAA training lived in three learning systems and completion was tracked in spreadsheets.",
    "In the first training year on Cortilane Compliance Suite, annual HIPAA training completion rose from 71 percent to 98 percent.",
    "Preparing evidence for the annual compliance audit now takes 9 days instead of 6 weeks.",
    "Bellhaven also runs monthly phishing simulations with Cortilane Phish, and its click rate is 8 percent.",
    "\"The auditors asked for one report and we gave them one report,\" said Marguerite Abiola, chief compliance officer at Bellhaven Health Partners.")

src("https://cortilane.com/compare/cortilane-vs-phishwarden", "Cortilane vs Phishwarden", "2026-03-15",
    "Phishwarden is a phishing simulation company that added training; Cortilane is a compliance training company that added phishing simulation.",
    "Phishwarden's Enterprise plan is $42 per user per year and includes compliance reports, but its library has no DORA or NIS2 courses.",
    "Cortilane Regulated, at €38 per learner per year, includes DORA and NIS2 modules and a dedicated compliance adviser.",
    "Phishwarden offers 34 languages, and every Cortilane course is available in 38 languages.",
    "For simulated phishing, Phishwarden's SMS and voice simulations go further than Cortilane Phish, which sends email only.")

# ---------------- Heedra ----------------
src("https://heedra.com/", "Heedra: human risk management", "2026-04-22",
    "Heedra is a human risk management platform: it scores each employee's security risk from real behavior and nudges them at the moment it matters.",
    "Heedra reads signals from email security, identity, endpoint and browser tools, so a risky click, a reused password or an ignored MFA prompt shows up in one risk score.",
    "Nudges arrive in Slack or Microsoft Teams and take under a minute to read.",
    "Heedra protects more than 900,000 employees at 610 companies.",
    "Most customers are live in under two weeks.",
    "Heedra is based in Boulder, Colorado.")

src("https://heedra.com/pricing", "Heedra pricing", "2026-03-20",
    "Heedra is sold per user per month, billed annually, with a minimum of 250 users.",
    "Core is $3 per user per month and includes risk scoring, phishing simulation and Slack and Teams nudges.",
    "Adaptive costs $5 per user per month and adds automated playbooks that, for example, shorten session lengths or require MFA for high-risk users.",
    "Enterprise adds EU data residency and a private deployment option, and is quoted on request.",
    "Training videos are licensed from Skepsy and are included at no charge on Adaptive; on Core they cost $1 per user per month.",
    "Every evaluation starts with a free trial of 14 days connected to your real tools.")

src("https://heedra.com/company", "Heedra company and leadership", "2026-02-26",
    "Ines Calderwood founded Heedra in 2018 after six years running insider-risk investigations at a defense contractor, and she is our chief executive officer.",
    "Rafferty Osei, co-founder and chief technology officer, built Heedra's risk engine.",
    "Paloma Strand joined as chief revenue officer in 2025 from an email security company.",
    "Heedra has 150 employees, most of them in Boulder and Denver.",
    "Heedra is backed by Seabright Capital, Quarrystone Ventures and Hollis Peak.")

src("https://heedra.com/press/heedra-series-b", "Heedra raises $32 million Series B", "2025-09-16",
    "BOULDER, Colo., September 16, 2025 -- Heedra, the human risk management company, today announced a $32 million Series B led by Seabright Capital, with participation from Quarrystone Ventures.",
    "The round brings Heedra's total funding to $51 million.",
    "Heedra's annual recurring revenue grew 140 percent in the past 12 months.",
    "Heedra will use the funding to add integrations and to open a European office in Amsterdam in 2026.",
    "\"Annual training tells you who sat through a video; Heedra tells you who is actually at risk this week,\" said Ines Calderwood, founder and CEO of Heedra.",
    "Heedra previously raised a $15 million Series A led by Quarrystone Ventures in 2023 and a $4 million seed round in 2019.",
    "Heedra has 120 employees.")

src("https://heedra.com/customers/northbeam-insurance", "Northbeam Insurance: phishing reported in minutes, not hours", "2026-01-20",
    "Northbeam Insurance is a regional property and casualty insurer in Wisconsin and Minnesota with 1,900 employees.",
    "Northbeam had run annual training and quarterly phishing tests for years, but its click rate was stuck at about 11 percent.",
    "After Heedra went live in April 2025, the median time from a phishing email arriving to an employee reporting it fell from 47 minutes to 6 minutes.",
    "Reported phishing emails rose fourfold, and the security team now spends 5 hours a week on employee follow-up instead of about 20.",
    "Northbeam moved to Heedra from Phishwarden when its contract came up for renewal.",
    "\"We finally know which 50 people to worry about,\" said Tobias Renwick, CISO at Northbeam Insurance.")

# ---------------- Sentryfold ----------------
src("https://sentryfold.com.au/", "Sentryfold: security awareness for regulated organisations", "2026-02-05",
    "Sentryfold is security awareness training for Australian and New Zealand organisations that answer to regulators.",
    "Our courses map to the Essential Eight, APRA CPS 234 and the New Zealand Protective Security Requirements.",
    "More than 1,700 organisations, including 46 local councils, train their staff with Sentryfold.",
    "Sentryfold hosts all customer data in Australia, in Sydney and Melbourne.",
    "Since January 2026, Sentryfold is also available in the United States, from an office in Seattle.")

src("https://sentryfold.com.au/pricing", "Sentryfold pricing", "2026-01-28",
    "Prices are in Australian dollars per user per year, excluding GST.",
    "Foundation is A$22 per user per year and covers the core awareness course and quarterly phishing simulations.",
    "Assure costs A$36 per user per year and adds monthly simulations, Essential Eight and CPS 234 modules and board reporting.",
    "Govern is A$55 per user per year and adds a dedicated risk adviser, custom phishing scenarios and attestation workflows.",
    "In the United States, Assure is US$24 per user per year.",
    "Government agencies and councils buying through the whole-of-government panel get 15 percent off.",
    "The minimum order is 50 users.")

src("https://sentryfold.com.au/about", "About Sentryfold", "2025-12-10",
    "Sentryfold was founded in Melbourne in 2014 by Callum Rutherford, a former Australian Signals Directorate analyst who now leads product as chief product officer.",
    "Rebecca Thornbury has been our chief executive since 2021; before Sentryfold she ran the public sector business of a cloud company in Canberra.",
    "Our chief financial officer is Anil Varghese, and Maeve O'Shaughnessy leads our US business from Seattle.",
    "We are 190 people across Melbourne, Sydney, Wellington and Seattle.")

src("https://sentryfold.com.au/news/series-b-and-us-launch", "Sentryfold raises A$40 million and heads to the United States", "2025-11-18",
    "MELBOURNE, 18 November 2025 -- Sentryfold today announced a A$40 million Series B led by Harrowgate Partners, with participation from Southerly Ventures, to fund its launch in the United States.",
    "It is Sentryfold's first outside funding since a A$6 million Series A in 2019, when its annual recurring revenue was under A$5 million.",
    "Sentryfold ended the 2025 financial year with A$38 million in ARR, up 41 percent, and has been profitable since 2022.",
    "Sentryfold will open a Seattle office in January 2026 and sell first to US state and local government agencies and credit unions.",
    "\"Public sector buyers in the US want what our councils want: training that maps to a framework and data that stays put,\" said Rebecca Thornbury, CEO of Sentryfold.")

# ---------------- Skepsy ----------------
src("https://skepsy.com/", "Skepsy: security training people actually finish", "2026-03-05",
    "Skepsy is security awareness training people actually finish: a streaming series of 3-minute episodes with recurring characters, released every two weeks.",
    "Employees watch Skepsy on any phone or laptop, and every episode ends with a one-question check.",
    "Skepsy episodes also play inside Heedra and Harbinly, which license our library.",
    "More than 1,100 organizations stream Skepsy, from school districts to hospitals.",
    "Skepsy is a Chicago company founded in 2021 by a former TV writer and a former CISO.")

src("https://skepsy.com/pricing", "Skepsy pricing", "2026-02-20",
    "Skepsy has two plans, both priced per user per year.",
    "Episodes is $19 per user per year and includes the full series, quizzes and completion reports.",
    "Episodes + Phishing costs $27 per user per year and adds phishing simulations themed on the episodes employees have watched.",
    "Schools and nonprofits pay $9 per user per year on either plan.",
    "The minimum is 100 users, and a free 45-day pilot is available for up to 200 users.")

src("https://skepsy.com/about", "About Skepsy", "2026-01-12",
    "Owen Lachance wrote for network television for ten years before he co-founded Skepsy with Keiko Brandvold in 2021.",
    "Keiko spent twelve years as a CISO at two hospital systems and is Skepsy's president.",
    "Owen is chief executive officer and still writes the first draft of every season.",
    "Skepsy raised a $5.5 million seed round led by Wrenfield Ventures in 2022 and is 48 people today.")

src("https://skepsy.com/customers/merriwether-unified", "Merriwether Unified School District: 94 percent of staff finished every episode", "2025-10-14",
    "Merriwether Unified School District in Fresno County, California, has 3,400 staff across 41 schools.",
    "Its previous annual training course had a completion rate of 52 percent, with most staff finishing in the last week before the deadline.",
    "In the 2024-25 school year, 94 percent of staff finished every Skepsy episode, and the district stopped sending reminder emails in November.",
    "Clicks on simulated phishing emails fell from 19 percent to 7 percent on Episodes + Phishing.",
    "\"Teachers talk about the characters in the staff room,\" said Luis Ferreyra, director of technology at Merriwether Unified.")

# ---------------- Harbinly ----------------
src("https://harbinly.com/", "Harbinly: security awareness training for MSPs", "2026-04-28",
    "Harbinly is security awareness training built for managed service providers, who run it for all their clients from one console.",
    "More than 1,400 MSP partners use Harbinly to train 38,000 client businesses.",
    "Partners brand Harbinly with their own logo, bundle it into their security stack and bill clients however they like.",
    "New partners launch their first client in about a day, with onboarding calls included.",
    "Harbinly is headquartered in Atlanta, Georgia.")

src("https://harbinly.com/partners/pricing", "Harbinly partner pricing", "2026-03-12",
    "Harbinly sells only to MSPs, at partner prices per seat per month with no annual commitment.",
    "Partner is $0.90 per seat per month and includes phishing simulation, the training library and client reports.",
    "Partner Plus costs $1.60 per seat per month and adds dark web monitoring, policy attestation and Skepsy episodes.",
    "Partners commit to a minimum of 100 seats across all their clients.",
    "Most partners resell Harbinly to clients for $3 to $5 per user per month.")

src("https://harbinly.com/news/stonecrop-growth-investment", "Harbinly receives $60 million growth investment from Stonecrop Partners", "2025-05-20",
    "ATLANTA, May 20, 2025 -- Harbinly today announced a $60 million growth investment from Stonecrop Partners.",
    "It is Harbinly's first institutional capital since Darnell Quarles and Whitney Ambrose founded the company in 2017.",
    "Harbinly grew from 850 to 1,200 MSP partners in 2024, and revenue rose 52 percent.",
    "\"MSPs are how small businesses buy security,\" said Darnell Quarles, CEO of Harbinly.",
    "Stonecrop Partners managing director Felicity Oduya joins Harbinly's board.",
    "Harbinly employs 110 people in Atlanta.")

src("https://harbinly.com/partners/brightwater-it", "Brightwater IT built a $9,400 monthly line of business on Harbinly", "2025-08-19",
    "Brightwater IT is a managed service provider in Savannah, Georgia, with 28 technicians and 140 small-business clients.",
    "Brightwater added Harbinly to its security bundle in 2024 and now trains 3,600 client employees.",
    "Security awareness now brings in $9,400 a month in recurring revenue at a gross margin of 72 percent.",
    "Client click rates averaged 17 percent in the first campaign and 5 percent a year later.",
    "Onboarding a new client takes Brightwater about 20 minutes.",
    "\"Clients think it's our product, and in a way it is,\" said Terrence Mabry, owner of Brightwater IT.")

# ---------------- SoftGauge (review site) ----------------
src("https://softgauge.com/reviews/phishwarden", "Phishwarden reviews", "2026-04-15",
    "Phishwarden is rated 4.5 out of 5 by 1,284 reviewers on SoftGauge.",
    "\"The template library is huge and the Spanish content is genuinely good,\" wrote an IT director at a 900-person manufacturer.",
    "\"Renewal went up 30 percent with no new features we asked for,\" wrote a security manager at a regional bank.",
    "\"The admin console crawls once you have more than a few thousand users in a group,\" wrote a systems administrator in healthcare.",
    "Reviewers most often criticize renewal pricing and the speed of the admin console.",
    "Among mid-market buyers, Phishwarden scores highest for library size and lowest for value for money.")

src("https://softgauge.com/reviews/baitwise", "Baitwise reviews", "2026-03-25",
    "Baitwise holds the highest average score in security awareness training on SoftGauge: 4.8 out of 5 from 312 reviews.",
    "\"Set up in 20 minutes and the first test caught our bookkeeper,\" wrote the owner of a 30-person landscaping company.",
    "\"There is no compliance training at all, so we still buy HIPAA courses somewhere else,\" wrote an office manager at a dental group.",
    "\"Reports are basic: one chart and a CSV,\" wrote an IT consultant.",
    "The most common complaint is the lack of compliance courses, followed by basic reporting.")

src("https://softgauge.com/reviews/cortilane", "Cortilane reviews", "2026-02-27",
    "Cortilane scores 4.2 out of 5 from 688 reviews on SoftGauge.",
    "Reviewers praise the compliance catalogue and the audit exports.",
    "\"The phishing simulator is an afterthought: email only, and the templates feel old,\" wrote an IT manager at a Dutch bank.",
    "\"We were locked into a three-year contract and the videos look like they were filmed in 2014,\" wrote an HR director.",
    "Weak phishing simulation and long contracts are the most frequent complaints.")

src("https://softgauge.com/reviews/heedra", "Heedra reviews", "2026-04-08",
    "Heedra is rated 4.4 out of 5 by 207 reviewers.",
    "\"Best visibility into human risk we've had, and the Teams nudges actually get read,\" wrote a security operations lead at a fintech.",
    "\"It needs a security team that will act on the scores; this is not set-and-forget,\" wrote an IT manager at a 400-person retailer.",
    "\"Pricey for what you get in training content,\" wrote a CISO at a software company.",
    "Reviewers who left Heedra mostly went back to course-based platforms such as Phishwarden.")

src("https://softgauge.com/reviews/sentryfold", "Sentryfold reviews", "2026-02-22",
    "Sentryfold is rated 4.3 out of 5 from 276 reviews, most of them from Australian councils, banks and universities.",
    "\"The Essential Eight mapping saved us weeks of audit prep,\" wrote a risk manager at a regional council.",
    "\"The phishing templates are very Australian, so they did not land with our US staff,\" wrote an IT lead at a mining company.",
    "\"The portal is slow on Monday mornings when everyone logs in,\" wrote a training coordinator at a university.")

src("https://softgauge.com/reviews/skepsy", "Skepsy reviews", "2026-03-12",
    "Skepsy averages 4.7 stars from 198 reviewers.",
    "\"First training our staff asked for more of,\" wrote an HR manager at a hospital.",
    "\"You can't upload your own content or edit the episodes, so our policy training lives elsewhere,\" wrote a compliance officer.",
    "\"Episodes come only in English and French,\" wrote an IT director in Texas.",
    "Reviewers' main complaints are that content cannot be customized and that there are only two languages.")

src("https://softgauge.com/reviews/harbinly", "Harbinly reviews", "2026-03-30",
    "Harbinly is rated 3.9 out of 5 by 164 MSP reviewers.",
    "\"White-labeling is excellent, and clients think it's our product,\" wrote an MSP owner in Ohio.",
    "\"The training videos are dated unless you pay for Partner Plus to get Skepsy,\" wrote a virtual CISO.",
    "\"Client reports need manual cleanup before we send them,\" wrote a service manager.",
    "Reviewers most often mention dated content on the base plan and clunky client reports.")

src("https://softgauge.com/compare/phishwarden-vs-cortilane", "Phishwarden vs Cortilane", "2026-03-18",
    "Phishwarden and Cortilane both sell security awareness training to mid-size companies, but they come from opposite directions.",
    "Phishwarden Professional costs $29 per user per year and includes the full library and SMS and voice simulations.",
    "Cortilane's closest plan, Compliance Suite, is €24 per learner per year in Europe and $26 per learner per year in North America, and is sold on three-year agreements.",
    "For 1,000 US employees, that is $29,000 a year for Phishwarden and $26,000 a year for Cortilane.",
    "SoftGauge reviewers rate Phishwarden 4.5 and Cortilane 4.2.",
    "Phishwarden has more than 7,800 customers; Cortilane reports about 2,900.")

src("https://softgauge.com/compare/phishwarden-vs-heedra", "Phishwarden vs Heedra", "2026-04-20",
    "Phishwarden trains people with courses and simulations; Heedra measures each person's risk and nudges them in Slack or Teams.",
    "Heedra is priced per user per month with a 250-user minimum: Core is $3 per user per month, or $36 per user per year.",
    "For a 500-person company, Phishwarden Professional comes to $14,500 a year and Heedra Core to $18,000 a year.",
    "Phishwarden's free trial lasts 21 days; Heedra's trial lasts 14 days.",
    "Heedra has far fewer training modules and licenses its videos from Skepsy.",
    "Reviewers rate Phishwarden 4.5 and Heedra 4.4.")

src("https://softgauge.com/compare/baitwise-vs-harbinly", "Baitwise vs Harbinly", "2026-03-08",
    "Baitwise and Harbinly are both inexpensive, but they are sold to different buyers.",
    "Harbinly sells only through MSPs, at $0.90 per seat per month on its Partner plan, and the MSP sets the client's price.",
    "Baitwise sells directly to small businesses: Team is $1.25 per user per month, and up to 25 users are free.",
    "A 40-person business on Baitwise Team pays $50 a month; through an MSP, Harbinly typically costs the same business $120 to $200 a month.",
    "Baitwise has 3,100 direct customers; Harbinly reaches 38,000 businesses through more than 1,400 MSPs.")

src("https://softgauge.com/compare/cortilane-vs-sentryfold", "Cortilane vs Sentryfold", "2026-02-14",
    "Cortilane and Sentryfold both sell to regulated organizations, Cortilane in Europe and North America and Sentryfold in Australia and New Zealand.",
    "Sentryfold Assure is A$36 per user per year; Cortilane Compliance Suite is €24 per learner per year.",
    "Sentryfold keeps customer data in Australia; Cortilane hosts in Ireland and Germany.",
    "Sentryfold is rated 4.3 out of 5 and Cortilane 4.2 out of 5 on SoftGauge.",
    "Cortilane offers 38 languages; Sentryfold offers 9.")

src("https://softgauge.com/best/security-awareness-training", "Best security awareness training for mid-size companies in 2026", "2026-05-04",
    "We tested seven security awareness platforms with a 300-person test group over eight weeks.",
    "Our top picks for mid-size companies are Phishwarden, Heedra and Cortilane, in that order.",
    "Phishwarden is the best all-round choice, with the largest library and the best reporting we saw.",
    "The cheapest option we tested is Baitwise, whose Team plan costs $1.25 per user per month, or $15 per user per year.",
    "Harbinly's $0.90 per seat is lower still, but only MSPs can buy it.",
    "For MSPs, the pick is Harbinly, the only platform here built to be resold.",
    "The most expensive platform we tested is Heedra: Adaptive works out to $60 per user per year, about twice Phishwarden Professional.",
    "Only three of the seven include HIPAA courses today: Cortilane, Phishwarden and Skepsy.",
    "Only Baitwise has a free plan, for up to 25 users.",
    "Skepsy had the highest completion rate in our test, at 91 percent.")

src("https://softgauge.com/alternatives/phishwarden", "Phishwarden alternatives", "2026-04-25",
    "Buyers who leave Phishwarden usually cite renewal prices, or want less training and more risk data.",
    "The top Phishwarden alternatives on SoftGauge are Heedra, Cortilane and Baitwise.",
    "Heedra is the best Phishwarden alternative for companies with a security operations team.",
    "Cortilane suits buyers whose auditors care more about compliance courses than about phishing.",
    "Baitwise is the budget pick, at $1.25 per user per month.",
    "Sentryfold is worth a look for Australian and New Zealand organizations.")

src("https://softgauge.com/alternatives/cortilane", "Cortilane alternatives", "2026-03-02",
    "Most buyers comparing Cortilane want compliance courses with better phishing simulation or a shorter contract.",
    "The best Cortilane alternatives for compliance training are Sentryfold and Phishwarden Enterprise.",
    "Sentryfold covers the Essential Eight and CPS 234 and sells one-year contracts.",
    "Phishwarden Enterprise adds HIPAA and PCI DSS training evidence to its compliance reports, at $42 per user per year.",
    "Skepsy is a good supplement if completion rates are the problem, but it has no compliance catalogue.")

# ---------------- The Patch Ledger (trade press) ----------------
src("https://thepatchledger.com/2024/03/ironoak-buys-cortilane", "Ironoak Equity buys Cortilane for about €310 million", "2024-03-06",
    "Ironoak Equity has agreed to buy Cortilane, the Dublin compliance training company, for about €310 million, according to two people familiar with the deal.",
    "Cortilane did not disclose the price.",
    "The company had revenue of about €41 million in 2023 and last raised venture money in 2017, a €12 million round led by Liffey Growth.",
    "Ironoak has owned a Dutch e-learning company since 2021 and is expected to combine the two.",
    "Phishwarden and Heedra have both grown faster than Cortilane in North America.")

src("https://thepatchledger.com/2025/06/phishwarden-series-c", "Phishwarden raises $85 million at a $1.1 billion valuation", "2025-06-04",
    "Phishwarden has raised $85 million led by Granite Arch Partners, valuing the Austin company at $1.1 billion, according to a person familiar with the matter.",
    "Phishwarden says it has 6,500 customer organizations and more than 300 employees.",
    "Rivals include Cortilane, now owned by Ironoak Equity, and Heedra, which sells risk scoring rather than courses.",
    "CEO Corinne Hadley said Phishwarden would spend part of the money on AI coaching.",
    "Phishwarden has raised $142 million in total.")

src("https://thepatchledger.com/2026/02/baitwise-series-a", "Baitwise raises $11 million for phishing tests that small businesses buy online", "2026-02-18",
    "Raleigh-based Baitwise, which sells phishing tests to small businesses for $1.25 per user per month, has raised $11 million in a Series A led by Corbel Ventures.",
    "The company has 85 employees and 3,100 customers, and says revenue doubled in 2025.",
    "Baitwise plans to add HIPAA and PCI DSS courses this year, a gap reviewers have flagged.",
    "Co-founder and CEO Jonah Abernathy said Baitwise would keep selling without a sales team for companies under 200 employees.")

src("https://thepatchledger.com/2026/01/sentryfold-opens-seattle", "Sentryfold opens in Seattle, pricing under Phishwarden", "2026-01-21",
    "Melbourne's Sentryfold opened its Seattle office on January 12, 2026, its first outside Australia and New Zealand.",
    "Sentryfold will sell Assure at US$24 per user per year in the US, well under Phishwarden's $29 Professional plan.",
    "Maeve O'Shaughnessy, who runs the US business, said the first customers are two Washington state counties.",
    "Sentryfold raised A$40 million in November.")

src("https://thepatchledger.com/2022/09/skepsy-seed", "Skepsy raises $5.5 million to make security training binge-worthy", "2022-09-13",
    "Skepsy, a Chicago startup making security training as a streaming series, has raised a $5.5 million seed round led by Wrenfield Ventures.",
    "Skepsy was founded in 2021 by Owen Lachance, a former TV writer, and Keiko Brandvold, a former hospital CISO.",
    "It has 14 employees and plans to license its episodes to other training platforms.")

# ---------------- Brannock Advisory (analyst) ----------------
src("https://brannockadvisory.com/notes/security-awareness-training-market-2026", "Security awareness training: market note 2026", "2026-02-10",
    "Organizations spent an estimated $3.4 billion on security awareness training in 2025, and we expect 13 percent annual growth through 2029.",
    "Phishwarden is the largest vendor in the mid-market by customer count, with more than 7,800 organizations and an estimated 17 percent share of mid-market spending.",
    "Heedra is the fastest-growing vendor we track, with ARR up 140 percent in 2025, as buyers shift budget from courses to human risk management.",
    "Cortilane leads compliance-driven buying in Europe; Sentryfold leads in Australia and New Zealand.",
    "Baitwise and Harbinly compete for small businesses, Baitwise directly and Harbinly through MSPs.",
    "Three vendors deliver coaching or nudges inside Slack and Microsoft Teams: Heedra, Phishwarden and Baitwise.",
    "We expect consolidation: Ironoak's purchase of Cortilane in 2024 will not be the last.",
    "Average list prices for mid-market plans fell 6 percent in 2025 as AI-generated simulations lowered content costs.")

src("https://brannockadvisory.com/notes/heedra-vendor-profile", "Vendor profile: Heedra", "2026-03-03",
    "Heedra is a Boulder-based human risk management vendor founded in 2018 and led by CEO Ines Calderwood.",
    "We estimate Heedra's ARR at $24 million at the end of 2025.",
    "Strengths: risk scoring that combines identity, endpoint and email signals, nudges in Slack and Teams, and fast deployment.",
    "Weaknesses: thin training content, which it licenses from Skepsy, a 250-user minimum that shuts out small businesses, and the need for an active security team to act on risk scores.",
    "Typical customers have 500 to 10,000 employees.",
    "Heedra's list prices run from $3 to $5 per user per month.")

# ---------------- Admin Circle (forum) ----------------
src("https://admincircle.net/threads/phishwarden-renewal-up-30-percent", "Phishwarden renewal up 30% - normal?", "2026-03-02",
    "Posted by netops_rhea: Our Phishwarden renewal came in 30 percent higher than last year, for 500 users on Professional.",
    "We were paying about $14,500 a year and they now want about $18,850.",
    "Reply from sysadmin_dev: Push back.",
    "We got them down to an 8 percent increase by signing for three years.",
    "Reply from it_maria: We moved to Heedra last year.",
    "Different product, more of a risk dashboard, but our security team likes it.",
    "Reply from netops_rhea: What did Heedra cost you?",
    "Reply from it_maria: Core was $3 a user a month, so about $18,000 a year for our 500, plus $1 a user for the Skepsy videos.",
    "Reply from cheapskate_ciso: If you only need phishing tests, Baitwise Business is $2.50 a user a month and there is no contract.")

src("https://admincircle.net/threads/security-awareness-for-200-person-company", "Security awareness training for a 200-person company?", "2026-01-14",
    "Posted by ops_gary: 200 people, mostly remote, and our insurer wants phishing training in place by June.",
    "What do you use?",
    "Reply from firewall_fran: Baitwise.",
    "Took us 15 minutes to set up, and it costs us $500 a month for 200 users on Business.",
    "Reply from msp_marco: We're an MSP and resell Harbinly to about 60 clients; they pay us $4 per user per month.",
    "Reply from compliance_kim: If you handle health data you need HIPAA courses too, and Baitwise doesn't have them yet.",
    "We use Cortilane for that.",
    "Reply from ops_gary: Thanks, trying Baitwise first.")

# ---------------- Crest Jobs (job board) ----------------
src("https://crestjobs.com/jobs/phishwarden-senior-account-executive-austin", "Senior Account Executive, Mid-Market - Phishwarden - Austin, TX", "2026-04-06",
    "Phishwarden is hiring a Senior Account Executive, Mid-Market, to sell Professional and Enterprise to companies with 1,000 to 10,000 employees.",
    "The base salary is $95,000 to $115,000, and on-target earnings are $190,000 to $230,000, plus equity.",
    "You will carry an annual quota of about $1.1 million in new ARR.",
    "We are also hiring Sales Development Representatives in Austin at $58,000 to $66,000 base.",
    "The role is hybrid, three days a week in our Austin office.",
    "Phishwarden has about 420 people and is backed by Granite Arch Partners.")

src("https://crestjobs.com/jobs/cortilane-instructional-designer-dublin", "Instructional Designer - Cortilane - Dublin", "2026-02-02",
    "Cortilane is hiring an Instructional Designer to write GDPR and DORA courses for banks and insurers.",
    "The salary is €48,000 to €58,000 a year, with a bonus of up to 10 percent.",
    "You will work with the content and legal team led by Orla Ferriter.",
    "The role is hybrid, two days a week in our Dublin office.",
    "Cortilane employs about 260 people and is owned by Ironoak Equity.")

src("https://crestjobs.com/jobs/heedra-senior-detection-engineer", "Senior Detection Engineer - Heedra - Boulder, CO or remote", "2026-03-10",
    "Heedra is hiring a Senior Detection Engineer to build the identity, email and endpoint signals behind its risk scores.",
    "Compensation is $165,000 to $195,000 base plus equity.",
    "We are also hiring a Customer Success Manager for enterprise accounts at $95,000 to $110,000 plus bonus.",
    "You can work remotely in the US or hybrid in Boulder.",
    "Heedra has 150 employees and is backed by Seabright Capital.")

src("https://crestjobs.com/jobs/baitwise-customer-success-manager", "Customer Success Manager - Baitwise - Remote (US)", "2026-03-22",
    "Baitwise is hiring a Customer Success Manager, remote in the US, to onboard and renew small-business customers.",
    "Pay is $68,000 to $78,000 a year plus a renewal bonus of up to 10 percent.",
    "You will look after about 400 accounts.",
    "Baitwise has 85 employees and is based in Raleigh, North Carolina.")

src("https://crestjobs.com/jobs/sentryfold-enterprise-account-executive-seattle", "Enterprise Account Executive, US Public Sector - Sentryfold - Seattle, WA", "2026-02-16",
    "Sentryfold is hiring its first Enterprise Account Executive in Seattle to sell to US state and local government.",
    "Base salary is $110,000 to $125,000, with on-target earnings of $220,000.",
    "You will report to Maeve O'Shaughnessy, general manager for North America.",
    "Sentryfold has 190 employees in Australia, New Zealand and the US.")

src("https://crestjobs.com/jobs/harbinly-partner-account-manager-atlanta", "Partner Account Manager - Harbinly - Atlanta, GA", "2026-04-01",
    "Harbinly is hiring a Partner Account Manager in Atlanta to grow revenue from MSP partners in the Southeast.",
    "The salary is $65,000 to $75,000, with on-target earnings of $110,000.",
    "You will manage about 120 MSP partners.",
    "Harbinly employs 110 people.")

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "corpus.ndjson"), "w") as f:
    for domain, name, desc, industry, hq, founded, employees in companies:
        f.write(json.dumps({"type": "company", "key": domain, "properties": {
            "name": name, "domain": domain, "description": desc, "industry": industry,
            "headquarters": hq, "founded": founded, "employees": employees}}, ensure_ascii=False) + "\n")
    for url, title, date, content in S:
        f.write(json.dumps({"type": "source", "key": url, "properties": {
            "title": title, "url": url, "publishedAt": date, "content": content}}, ensure_ascii=False) + "\n")
print(f"{len(companies)} companies, {len(S)} sources")
