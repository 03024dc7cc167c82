"""Writes corpus.ndjson for the restaurant workforce development corpus (the text below is the corpus;
edit it here and rerun `python3 make.py`, then `python3 ../check.py .`). Every company, domain, person,
customer and figure is fictional."""
import json, os

companies = [
    ("shiftlark.com", "Shiftlark", "Shiftlark is scheduling, time clock and tip pooling software for independent full-service restaurants, with a payroll product since 2026.", "Restaurant scheduling and tip management software", "Portland, Oregon, United States", 2017, 180),
    ("tabbrook.com", "Tabbrook", "Tabbrook provides payroll, tip reporting and HR for restaurant groups, with scheduling and earned wage access add-ons.", "Restaurant payroll software", "Columbus, Ohio, United States", 2012, 640),
    ("gratuvo.io", "Gratuvo", "Gratuvo calculates tip pools and pays tips to restaurant and bar staff the same night.", "Tip management and payout software", "Miami, Florida, United States", 2020, 72),
    ("mizeledger.com", "Mizeledger", "Mizeledger is a back office suite for multi-unit restaurant groups: labor costing, inventory, invoices and payroll.", "Restaurant back office software", "Toronto, Ontario, Canada", 2015, 310),
    ("rostrella.co", "Rostrella", "Rostrella is rota planning, timesheets and tronc management for UK and Irish hospitality, now also sold in the United States.", "Hospitality workforce software", "Manchester, United Kingdom", 2016, 220),
    ("counterbell.com", "Counterbell", "Counterbell runs hiring, scheduling, the time clock and payroll for quick-service restaurant franchisees.", "Quick-service restaurant workforce software", "Dallas, Texas, United States", 2019, 140),
]

S = []  # (url, title, publishedAt, content)
def src(url, title, date, *sentences):
    S.append((url, title, date, " ".join(sentences)))

# ---------------- Shiftlark ----------------
src("https://shiftlark.com/", "Shiftlark: Scheduling and tip pooling for independent restaurants", "2026-05-02",
    "Shiftlark is scheduling, time clock and tip pooling software built for independent restaurants and small restaurant groups.",
    "More than 9,000 restaurants in the United States and Canada build their weekly schedules in Shiftlark.",
    "Managers draft next week's schedule from sales forecasts pulled out of the POS, and staff swap shifts in the Shiftlark app without a phone call.",
    "Shiftlark Tips splits pooled tips by hours worked, role points or a custom formula, and posts each server's share to payroll the same night.",
    "Since April 2026, Shiftlark Payroll runs full-service payroll with tip reporting, so the schedule, the time clock and the paycheck live in one place.",
    "Shiftlark integrates with the Tillpoint, Orderbay and Cashwell point-of-sale systems and with Tablewise reservations.",
    "Restaurants on Shiftlark cut scheduling time by an average of 5 hours a week per manager, according to a 2025 customer survey.",
    "We are headquartered in Portland, Oregon, and our support team answers chats seven days a week, from 6am to midnight Pacific.")

src("https://shiftlark.com/pricing", "Shiftlark pricing: Starter, Essentials, Plus and Premium", "2026-04-20",
    "Shiftlark pricing is per location, so adding a new hire never changes your bill.",
    "Starter is free forever for a single location with up to 15 employees, and includes scheduling and shift swaps.",
    "Essentials costs $49 per location per month and adds the time clock, overtime alerts and labor cost tracking.",
    "Most full-service restaurants choose Plus, at $99 per location per month, which adds Shiftlark Tips for tip pooling and sales-based labor forecasting.",
    "Premium is billed at $189 per location per month and includes multi-location reporting, manager logbooks, a dedicated onboarding manager and phone support.",
    "Premium plan customers can add Shiftlark Payroll to the Premium plan for $6 per employee per month plus a $40 monthly base fee.",
    "On Essentials and Plus, Shiftlark Payroll costs $8 per employee per month plus the same $40 base fee.",
    "Annual billing saves 15 percent on every paid plan.",
    "Every paid plan starts with a free trial of 30 days, and we will import your schedules from Counterbell, Rostrella or a spreadsheet at no charge.",
    "Groups with more than 30 locations get volume pricing from our sales team.")

src("https://shiftlark.com/about", "About Shiftlark: our story and leadership team", "2026-03-10",
    "Shiftlark was founded in 2017 by Tessa Marlowe and Idris Fennimore, who met running the floor and the kitchen of the same Portland bistro.",
    "Tessa Marlowe is our chief executive officer; she spent nine years as a restaurant general manager before writing the first version of the schedule builder.",
    "Idris Fennimore leads engineering as chief technology officer.",
    "Joelle Stroud joined as chief financial officer in January 2025 after six years at a payments company.",
    "Nadia Okonkwo-Lee runs customer success, and Ramon Delacroix leads sales as vice president of revenue.",
    "We are about 180 people, most of us in Portland, Oregon, with a second office in Denver, Colorado.",
    "Shiftlark has raised $61 million in total from Halberd Ventures, Copperpine Capital and a group of restaurant owners.")

src("https://shiftlark.com/press/shiftlark-raises-38-million-series-b", "Shiftlark raises $38 million Series B to bring payroll to independent restaurants", "2025-03-18",
    "PORTLAND, Ore., March 18, 2025 -- Shiftlark, the scheduling and tip pooling platform for independent restaurants, today announced a $38 million Series B led by Halberd Ventures, with participation from existing investor Copperpine Capital.",
    "The round brings Shiftlark's total funding to $61 million.",
    "Shiftlark will use the funding to build a payroll product for restaurants and to double its customer success team.",
    "Shiftlark's customer count grew from 4,200 restaurants to 7,500 restaurants during 2024.",
    "\"Independent restaurants run on thin margins, and labor is the line they can actually manage,\" said Tessa Marlowe, co-founder and CEO of Shiftlark.",
    "\"This round lets us bring the paycheck into the same app as the schedule.\"",
    "Halberd Ventures partner Owen Trask will join Shiftlark's board of directors.",
    "Shiftlark previously raised a $17 million Series A led by Copperpine Capital in 2022 and a $6 million seed round in 2018.",
    "About Shiftlark: Shiftlark is headquartered in Portland, Oregon, and employs about 130 people.")

src("https://shiftlark.com/customers/juniper-and-salt", "How Juniper & Salt cut overtime across 14 restaurants", "2025-11-04",
    "Juniper & Salt is a family-owned group of 14 neighborhood restaurants in Oregon and Washington with about 610 employees.",
    "Before Shiftlark, Juniper & Salt managers spent close to 9 hours a week on overtime approvals and schedule fixes, working from spreadsheets and a group text.",
    "The group moved all 14 locations to Shiftlark Plus in August 2024, and the rollout took three weeks from contract to the last location going live.",
    "Within four months, unplanned overtime hours were down 23 percent across the group.",
    "Tip pooling moved from a shared spreadsheet to Shiftlark Tips, and the end-of-night tip-out now takes under 10 minutes instead of about 45.",
    "Labor cost fell from 33.5 percent of sales to 31.2 percent of sales over the first year.",
    "\"We stopped finding out about overtime on payday,\" said Graham Oduya, director of operations at Juniper & Salt.",
    "Juniper & Salt had previously evaluated Counterbell but chose Shiftlark for its tip pooling.")

src("https://shiftlark.com/changelog", "Shiftlark changelog", "2026-06-15",
    "June 15, 2026: Shift swaps now respect predictive scheduling rules in Seattle, New York City and Chicago, and warn managers before a change triggers a premium-pay penalty.",
    "May 28, 2026: Shiftlark Tips supports service charge distribution separately from tips, for restaurants that add an automatic 20 percent service charge on large parties.",
    "May 6, 2026: Exports to Tabbrook and Mizeledger payroll now include tip credit hours.",
    "April 14, 2026: Shiftlark Payroll is generally available in 41 states; it files federal, state and local payroll taxes and issues W-2 forms.",
    "March 3, 2026: The schedule builder can copy last year's schedule for the same week, for holidays and patio season.",
    "February 9, 2026: Labor forecasting now reads reservations from Tablewise as well as POS sales.")

src("https://shiftlark.com/compare/shiftlark-vs-counterbell", "Shiftlark vs Counterbell: which fits your restaurant?", "2026-05-20",
    "Counterbell was built for quick-service franchisees, and Shiftlark was built for independent full-service restaurants, where tips are a big part of pay.",
    "Counterbell charges per location per week: its Go plan is $25 per location per week and its Pro plan is $40 per location per week, which works out to about $173 a month for Pro.",
    "Shiftlark Plus is $99 per location per month and includes tip pooling, which Counterbell does not offer on any plan.",
    "Counterbell includes applicant tracking for hiring in Pro, while Shiftlark leaves hiring to dedicated tools.",
    "Both products have a time clock with geofencing and both integrate with the Tillpoint and Orderbay POS systems.",
    "Counterbell's onboarding is typically two weeks per market; most single restaurants are scheduling on Shiftlark within 48 hours.",
    "Prices for Counterbell are taken from its public pricing page in May 2026.")

src("https://shiftlark.com/blog/introducing-shiftlark-payroll", "Introducing Shiftlark Payroll", "2026-04-14",
    "Today we are launching Shiftlark Payroll, full-service payroll built for restaurants that already schedule and pool tips in Shiftlark.",
    "For eight years our customers asked us the same question: why do hours and tips live in Shiftlark but the paycheck lives somewhere else?",
    "Shiftlark Payroll pays employees by direct deposit or pay card, files federal, state and local taxes, and calculates the FICA tip credit automatically.",
    "Because tips come straight from Shiftlark Tips, nobody retypes a tip report again.",
    "We built it with 60 restaurants in a private beta that started in October 2025, and beta customers closed payroll in 40 minutes on average, down from about 3 hours.",
    "Shiftlark Payroll is available today in 41 states, and we expect to cover all 50 states by the end of 2026.",
    "Pricing is $8 per employee per month plus a $40 monthly base fee, and $6 per employee on Premium.",
    "If you are switching from Tabbrook, our payroll team will move your year-to-date totals for you.")

# ---------------- Tabbrook ----------------
src("https://tabbrook.com/", "Tabbrook: Payroll and HR for restaurant groups", "2026-02-11",
    "Tabbrook is payroll, tip reporting and HR for restaurant groups, from a single bistro to a national chain.",
    "Tabbrook pays more than 210,000 restaurant workers every pay period across 6,800 locations.",
    "Tabbrook handles payroll taxes in all 50 states, files Form 8027 for large food and beverage establishments and calculates the FICA tip credit for every pay period.",
    "Tabbrook's tip reporting collects declared tips from the POS and flags servers whose declared tips fall below 8 percent of sales.",
    "With Tabbrook Earned Wage Access, employees can take home part of their earned pay before payday.",
    "Most restaurant groups run their first payroll on Tabbrook within six weeks of signing, with a parallel run before go-live.",
    "Tabbrook has been based in Columbus, Ohio since 2012 and employs more than 600 people.",
    "Every Tabbrook customer has a named payroll specialist who knows restaurant tax rules.")

src("https://tabbrook.com/pricing", "Tabbrook pricing", "2026-01-20",
    "Tabbrook pricing has two parts: a monthly base fee per payroll account and a fee for each employee paid in the month.",
    "Core Payroll is $79 a month plus $7 per employee, with direct deposit, tax filing and W-2s.",
    "The Complete plan runs $129 a month plus $10 per employee and adds tip reporting, the FICA tip credit report, Form 8027 and HR document storage.",
    "Enterprise, for groups with 25 or more locations, is priced on request and includes multi-entity payroll and a named implementation team.",
    "Tabbrook Scheduling is an add-on at $3 per employee per month on any plan.",
    "Earned Wage Access costs employers nothing; employees pay $2.99 per instant transfer, and standard next-day transfers are free.",
    "Year-end W-2 and 1099 processing is included in every plan.",
    "A restaurant with 40 employees on Complete pays $529 a month.")

src("https://tabbrook.com/company/leadership", "Tabbrook leadership", "2026-01-05",
    "Harlan Vosburgh, Chief Executive Officer.",
    "Harlan co-founded Tabbrook in 2012 after a decade running payroll for a regional steakhouse chain.",
    "Renata Quintero, President and Chief Operating Officer.",
    "Renata joined Tabbrook in 2019 from a national payroll bureau and leads implementation, support and tax operations.",
    "Marcus Ellery-Shaw, Chief Financial Officer.",
    "Marcus joined in 2024, shortly after Corvane Capital's investment.",
    "Amara Lindgren, Chief Technology Officer.",
    "Amara leads Tabbrook's engineering and product teams of about 190 people.",
    "Paul Detweiler, co-founder and Head of Tax Compliance, keeps Tabbrook current with tax rules in all 50 states.")

src("https://tabbrook.com/news/corvane-capital-growth-investment", "Tabbrook receives $120 million growth investment from Corvane Capital", "2024-09-10",
    "COLUMBUS, Ohio, September 10, 2024 -- Tabbrook, the payroll and HR provider for restaurant groups, today announced a $120 million growth investment from Corvane Capital.",
    "It is the first outside capital Tabbrook has taken since co-founders Harlan Vosburgh and Paul Detweiler started the company in 2012.",
    "Tabbrook will use the investment to expand its scheduling and earned wage access products and to add 150 jobs in Columbus over the next two years.",
    "Tabbrook grew revenue 38 percent in 2023 and now serves 5,900 restaurant locations.",
    "\"Restaurant payroll is hard because tips are hard,\" said Harlan Vosburgh, CEO of Tabbrook.",
    "\"Corvane shares our view that restaurant groups deserve a specialist.\"",
    "As part of the investment, Corvane Capital managing director Lena Birkhoff and operating partner Sam Okafor join Tabbrook's board.",
    "Tabbrook employs more than 450 people.")

src("https://tabbrook.com/customers/bluegill-hospitality", "Bluegill Hospitality Group closes payroll in a third of the time", "2025-08-22",
    "Bluegill Hospitality Group operates 38 seafood restaurants across Florida, Georgia and the Carolinas, with about 2,300 employees.",
    "Bluegill moved its payroll from a general-purpose provider to Tabbrook Complete in early 2025.",
    "The migration took seven weeks, including a parallel payroll run in the last two weeks.",
    "Payroll processing time fell from 11 hours to 3 hours per pay period.",
    "Bluegill's tip reporting errors, which had cost $48,000 in penalties and back taxes in 2023, fell to zero in the first two quarters on Tabbrook.",
    "Bluegill also claims about $1.9 million a year in FICA tip credits, 14 percent more than it claimed before, because hours and tips now match.",
    "\"Our payroll team used to dread Tuesdays,\" said Yvette Marchbanks, controller at Bluegill Hospitality Group.",
    "Bluegill added Tabbrook Scheduling in its Georgia restaurants in late 2025.")

# ---------------- Gratuvo ----------------
src("https://gratuvo.io/", "Gratuvo: tips paid out tonight, not next payday", "2026-03-02",
    "Gratuvo calculates tip pools and pays tips to staff the same night, on any debit card or the Gratuvo Card.",
    "Gratuvo connects to the Tillpoint, Orderbay and Cashwell POS systems and pulls card tips and service charges at close.",
    "Managers approve the tip-out on a tablet and staff see their share in the Gratuvo app within minutes.",
    "Gratuvo keeps a full record of every pool for tip credit and wage-and-hour audits, and exports tip totals to Tabbrook, Mizeledger and Shiftlark Payroll.",
    "More than 2,600 restaurants and bars pay tips with Gratuvo.",
    "Gratuvo is a Miami, Florida company founded in 2020 by two former bartenders.")

src("https://gratuvo.io/pricing", "Gratuvo pricing: Pool and Payout", "2026-02-15",
    "Gratuvo has two plans, and both are priced per active employee.",
    "Pool is $3 per employee per month and covers tip pool calculation, tip-out reports and payroll exports.",
    "Payout is $5 per employee per month, and it adds same-night payouts to any debit card or the Gratuvo Card.",
    "On Payout, instant transfers are free for staff; on Pool, staff who want an instant transfer pay $1.50 per transfer.",
    "Each location pays a minimum of $60 a month on either plan.",
    "There is no setup fee and no annual contract, and you can cancel at the end of any month.",
    "Gratuvo Card holders can withdraw cash at 40,000 fee-free ATMs.")

src("https://gratuvo.io/blog/our-series-a", "We raised a Series A to pay every tip the same night", "2026-01-09",
    "Today we are announcing a $16 million Series A led by Saltmarsh Partners, with Pierhead Capital and Lanternfish Ventures joining.",
    "Pierhead Capital led our $4.5 million seed round in 2021, when we were five people in a Miami co-working space.",
    "We are now 72 people, and Gratuvo pays out more than $90 million in tips every month.",
    "Camila Dunleavy and I started Gratuvo because we spent years waiting a week for our own tips.",
    "We will spend the money on two things: connecting to more POS systems and launching Gratuvo in Canada in the second half of 2026.",
    "Thank you to the 2,600 restaurants and bars that trust us with their tips.",
    "Theo Achterberg, co-founder and COO")

src("https://gratuvo.io/team", "The Gratuvo team", "2026-02-01",
    "Camila Dunleavy is Gratuvo's co-founder and chief executive officer.",
    "Before Gratuvo, Camila tended bar for eight years in Miami Beach and ran a tip-pooling spreadsheet that 30 bars ended up copying.",
    "Theo Achterberg, co-founder and chief operating officer, runs payments, compliance and support.",
    "Lucia Ferreira-Banks joined in 2025 as head of engineering from a consumer banking app.",
    "Dwayne Pettigrew leads partnerships with POS companies.",
    "Gratuvo's team of 72 works from Miami and remotely across the United States.")

src("https://gratuvo.io/customers/lowtide-oyster-bar", "Lowtide Oyster Bar: tip-out in six minutes", "2025-09-30",
    "Lowtide Oyster Bar is a 220-seat restaurant in Charleston, South Carolina with 64 employees.",
    "Lowtide's closing manager used to spend 40 minutes every night counting cash and splitting the tip pool by hand.",
    "With Gratuvo, the end-of-night tip-out takes 6 minutes.",
    "Staff turnover at Lowtide fell from 92 percent to 61 percent a year after the switch, and the general manager credits same-night tips for much of it.",
    "Lowtide went live on Gratuvo in a single afternoon in March 2025.",
    "\"Nobody asks me where their tips are anymore,\" said Renee Castillo, general manager of Lowtide Oyster Bar.",
    "Lowtide schedules its staff in Shiftlark and pays wages through Tabbrook.")

# ---------------- Mizeledger ----------------
src("https://mizeledger.com/", "Mizeledger: back office for multi-unit restaurant groups", "2026-04-01",
    "Mizeledger is the back office for multi-unit restaurant groups in Canada and the United States: labor costing, inventory, invoices and payroll in one ledger.",
    "Mizeledger shows prime cost for every location by 11am the next morning, with labor, food and beverage costs side by side.",
    "Mizeledger customers run more than 4,100 locations, from 5-unit groups to franchisees with 300 units.",
    "Mizeledger Payroll runs Canadian payroll with tip-out distribution and US payroll in all 50 states.",
    "Mizeledger is headquartered in Toronto, Ontario and has an office in Chicago.",
    "Implementation for groups with more than 20 locations takes 8 to 10 weeks, with a dedicated project lead.")

src("https://mizeledger.com/pricing", "Mizeledger plans and pricing", "2026-03-15",
    "Mizeledger is sold per location on annual contracts, in US dollars for US groups and Canadian dollars for Canadian groups.",
    "Labor is $149 per location per month, covering scheduling, labor costing and tip-out distribution.",
    "Labor + Inventory is $239 per location per month and adds inventory counts, recipe costing and invoice capture.",
    "Full Back Office, at $329 per location per month, adds payroll, accounts payable and the prime cost dashboard.",
    "Canadian prices are CAD $199, CAD $319 and CAD $439 per location per month.",
    "A one-time onboarding fee of $1,500 per group covers data migration and training.",
    "Payroll on Full Back Office includes up to 60 employees per location, and each additional employee costs $4 per month.",
    "Groups with 100 or more locations are quoted individually.")

src("https://mizeledger.com/about", "About Mizeledger", "2026-02-20",
    "Mizeledger was founded in Toronto in 2015 by Anand Petrossian, a former restaurant controller, and Sophie Tremblay-Ng, an accountant who audited restaurant groups.",
    "Anand Petrossian is chief executive officer and Sophie Tremblay-Ng is chief product officer.",
    "Bridget Oyelaran leads sales in the United States from our Chicago office as senior vice president of sales.",
    "Mizeledger has about 310 employees in Toronto, Chicago and remote across both countries.",
    "Mizeledger has raised US$78 million, most recently a US$45 million Series C in May 2024.")

src("https://mizeledger.com/newsroom/series-c", "Mizeledger raises $45 million Series C", "2024-05-14",
    "TORONTO, May 14, 2024 -- Mizeledger today announced a US$45 million Series C led by Northquay Growth, with participation from Bramblewood Partners and existing investors.",
    "Mizeledger will use the funds to expand in the United States, where its customer count doubled in 2023, and to build Mizeledger Payroll for US restaurant groups.",
    "\"Prime cost is the number that decides whether a restaurant survives, and most groups see it three weeks late,\" said Anand Petrossian, CEO of Mizeledger.",
    "Mizeledger's annual recurring revenue passed US$30 million in early 2024.",
    "Northquay Growth partner Helena Varga will join Mizeledger's board.",
    "Mizeledger has raised US$78 million to date.")

src("https://mizeledger.com/case-studies/harbourline-restaurant-group", "Harbourline Restaurant Group lowers labor cost by 3.3 points", "2025-10-08",
    "Harbourline Restaurant Group runs 26 casual dining restaurants in Ontario and Nova Scotia.",
    "Harbourline went live on Mizeledger Full Back Office in nine weeks in the spring of 2024.",
    "In the first six months, the group's wage bill went from 34.1 percent of sales to 30.8 percent of sales, worth about CAD $2.2 million a year.",
    "Inventory variance dropped from 4.6 percent to 1.9 percent after weekly counts moved to tablets.",
    "Managers now see yesterday's prime cost before the lunch shift instead of at month end.",
    "\"We finally argue about the right numbers,\" said Colin MacBrayne, CFO of Harbourline Restaurant Group.",
    "Harbourline had used Rostrella for scheduling before consolidating on Mizeledger.")

# ---------------- Rostrella ----------------
src("https://rostrella.co/", "Rostrella: rotas, timesheets and tronc for hospitality", "2026-03-20",
    "Rostrella is rota planning, timesheets and tronc management for pubs, restaurants and hotels in the UK and Ireland.",
    "More than 11,000 hospitality venues plan their rotas in Rostrella, including pub groups with more than 500 sites.",
    "Rostrella's tronc module distributes tips and service charges through an independent troncmaster, so they are not subject to National Insurance.",
    "Rostrella checks every rota against the Working Time Regulations and flags staff under 18.",
    "Since February 2026 Rostrella is also available in the United States, from an office in Boston.",
    "Rostrella was founded in Manchester in 2016 and employs around 220 people.")

src("https://rostrella.co/pricing", "Rostrella pricing", "2026-02-28",
    "Rostrella is priced per employee per month, and employees who work no shifts in a month are not billed.",
    "Rota costs £3 per employee per month for rota planning, shift swaps and timesheets.",
    "Rota + Tronc is £4.50 per employee per month and adds tronc distribution, troncmaster reports and tip statements for staff.",
    "Rota Pro costs £6.50 per employee per month and adds payroll exports, labour forecasting and HR documents.",
    "In the United States the same plan is $8.50 per employee per month, with tip pooling in place of tronc.",
    "Every plan includes a 14-day free trial.",
    "Sites with fewer than 10 employees pay a flat £30 a month on Rota.")

src("https://rostrella.co/news/rostrella-arrives-in-the-us", "Rostrella arrives in the United States", "2026-02-10",
    "BOSTON, February 10, 2026 -- Rostrella, the rota and tronc platform used by more than 11,000 UK and Irish hospitality venues, today opened its first US office in Boston, Massachusetts.",
    "Rostrella launches in the US with tip pooling, predictive scheduling compliance for New York City, Chicago and Seattle, and integrations with Tillpoint and Orderbay.",
    "The expansion is funded by the £22 million Series B that Rostrella raised in October 2025, led by Kestrelmoor Capital.",
    "Rostrella's earlier £6 million Series A in 2021 was led by Fellgate Ventures.",
    "\"American independent restaurants face the same rota headaches as a Manchester pub, with more complicated tips,\" said Fiona Castellane, CEO of Rostrella.",
    "The Boston office will be led by Jordan Whitcombe, general manager for North America, and will employ 40 people by the end of 2026.",
    "Rostrella does not yet support the FICA tip credit report, which is planned for later in 2026.")

src("https://rostrella.co/about", "About Rostrella", "2026-01-15",
    "Rostrella started in 2016 when Gethin Pryce, then a pub manager in Manchester, built a rota app for his own staff.",
    "Fiona Castellane became chief executive in 2022, and Gethin Pryce is now chief product officer.",
    "Rostrella's headquarters are on Oldham Street in Manchester, with offices in Dublin and, since 2026, Boston.",
    "We are around 220 people, and about a third of us have worked in hospitality.",
    "Rostrella is backed by Kestrelmoor Capital and Fellgate Ventures.")

# ---------------- Counterbell ----------------
src("https://counterbell.com/", "Counterbell: the workforce app for quick-service franchisees", "2026-04-10",
    "Counterbell runs hiring, scheduling, the time clock and payroll for quick-service and fast-casual franchisees.",
    "Counterbell is used in more than 8,000 quick-service locations across 23 franchise brands.",
    "Counterbell Hire posts openings to job boards, screens applicants by text message and books interviews, so a new crew member can start in four days instead of two weeks.",
    "Counterbell Forecast builds schedules from 15-minute sales forecasts and drive-thru counts.",
    "Counterbell is headquartered in Dallas, Texas.")

src("https://counterbell.com/pricing", "Counterbell pricing", "2026-05-01",
    "Counterbell is billed weekly per location, because that is how franchisees look at labor.",
    "Go is $25 per location per week and covers scheduling, the time clock and team messaging.",
    "Pro is $40 per location per week and adds Counterbell Forecast, Counterbell Hire and franchisee-level reporting across locations.",
    "Franchise editions for brands that want Counterbell in every restaurant are priced per brand.",
    "Counterbell Payroll is an add-on at $5.50 per employee per month for franchisees on Pro.",
    "Hiring is also sold separately to Go customers at $89 per location per month.",
    "Onboarding takes two weeks per market, and there is no setup fee on Pro.")

src("https://counterbell.com/press/counterbell-launches-forecast", "Counterbell launches Counterbell Forecast", "2025-09-02",
    "DALLAS, September 2, 2025 -- Counterbell today launched Counterbell Forecast, which predicts sales and drive-thru traffic in 15-minute intervals and builds labor schedules to match.",
    "In a pilot with 320 restaurants, Counterbell Forecast cut labor cost by 1.8 percentage points while speed of service held steady.",
    "Counterbell Forecast is included in the Pro plan at no extra charge.",
    "\"A quick-service shift is won or lost in fifteen-minute blocks,\" said Dominic Harrow, co-founder and CEO of Counterbell.",
    "Counterbell raised a $21 million Series A led by Redtail Growth in July 2023 and employs 140 people.")

src("https://counterbell.com/customers/peakline-foods", "How a 41-unit Crispy Hen franchisee cut crew turnover", "2025-12-01",
    "Peakline Foods operates 41 Crispy Hen restaurants in Texas and Oklahoma.",
    "Peakline rolled out Counterbell Pro across all 41 restaurants in five weeks, one market at a time.",
    "Crew turnover fell 18 percent in the first year, which Peakline's HR team puts down to shift swaps in the app and faster first paychecks.",
    "Time to hire a crew member dropped from 12 days to 4 days with Counterbell Hire.",
    "Peakline's general managers now spend 3 hours a week on schedules, down from 7.",
    "\"Our GMs are back on the floor,\" said Teresa Vukovic, vice president of operations at Peakline Foods.")

src("https://counterbell.com/company", "Counterbell company", "2026-03-05",
    "Counterbell was started in 2019 by Dominic Harrow and Keisha Abernathy, who met as franchise area coaches for a burger chain.",
    "Dominic Harrow is our CEO; before Counterbell he was CFO of a 90-unit franchise group in Texas.",
    "Keisha Abernathy is president and leads our franchise brand partnerships.",
    "Priya Lindqvist, who runs our finance team, joined from a restaurant technology company in 2024.",
    "Our product and engineering teams are led by Tomasz Greer, chief technology officer.",
    "Counterbell has 140 employees, most in Dallas, Texas.")

# ---------------- Galley Score (reviews and comparisons) ----------------
src("https://galleyscore.com/reviews/shiftlark", "Shiftlark reviews 2026", "2026-05-12",
    "Shiftlark holds 4.6 out of 5 on Galley Score from 312 verified reviews, and ranks second in our restaurant scheduling category.",
    "Reviewers praise the schedule builder and tip pooling, and complain most about reporting across locations.",
    "\"We moved from Counterbell because we needed tip pooling; scheduling took an afternoon to set up,\" wrote a general manager at a 3-location taqueria.",
    "\"Reporting is the weak spot: anything beyond one location means exporting to a spreadsheet,\" wrote an operations director at a 9-unit group.",
    "\"Cheaper than Rostrella for us because we pay per location, not per employee,\" wrote the owner of a 70-employee brasserie.",
    "\"The app drains phone batteries and logs people out after updates,\" wrote a server in Austin.",
    "In the scheduling category, Rostrella averages 4.4 and Counterbell averages 4.0.")

src("https://galleyscore.com/reviews/tabbrook", "Tabbrook reviews", "2026-04-22",
    "Tabbrook has a Galley Score of 4.1 out of 5 from 188 reviews.",
    "Restaurant controllers rate its tip reporting and tax filing highly and rate the interface and support wait times poorly.",
    "\"Tax filing is bulletproof, we have not had a notice in three years,\" wrote a controller at a 22-location group.",
    "\"The interface looks like 2009 and the scheduling add-on is clunky next to Shiftlark,\" wrote an HR manager at a pizza chain.",
    "\"Phone support can mean a 40-minute hold on payday,\" wrote the owner of two diners.",
    "\"We left Mizeledger's payroll for Tabbrook because Mizeledger's US tax filing kept slipping,\" wrote a payroll manager in Ohio.",
    "In the restaurant payroll category, Tabbrook ranks third behind Mizeledger at 4.3 and Shiftlark Payroll at 4.5.")

src("https://galleyscore.com/reviews/gratuvo", "Gratuvo reviews", "2026-03-18",
    "Gratuvo is the top-rated tip management product on Galley Score, with 4.7 out of 5 from 241 reviews.",
    "\"Servers love getting paid the same night, and our hiring got easier,\" wrote a bar owner in Nashville.",
    "\"Only works with three POS systems, so our second location on Menuvault is still on spreadsheets,\" wrote a restaurant group owner.",
    "\"Weekend payouts sometimes land Monday when the bank holds them,\" wrote a bartender in Miami.",
    "\"We use Gratuvo for tips and Shiftlark for scheduling and they talk to each other fine,\" wrote a general manager in Denver.",
    "Gratuvo has no scheduling module, and reviewers who want one suite often compare it with Shiftlark Tips.")

src("https://galleyscore.com/compare/shiftlark-vs-rostrella", "Shiftlark vs Rostrella", "2026-04-05",
    "Shiftlark and Rostrella both build schedules from sales forecasts, but they are priced differently.",
    "Shiftlark charges per location: Plus is $99 per location per month whatever the headcount.",
    "Rostrella charges per employee: Rota Pro is £6.50 per employee per month in the UK and $8.50 per employee per month in the US.",
    "For a US restaurant with 30 employees, Rostrella Rota Pro costs $255 a month against $99 for Shiftlark Plus.",
    "Rostrella is stronger on European labour law and tronc; Shiftlark supports the FICA tip credit and US predictive scheduling rules in more cities.",
    "Galley Score reviewers rate Shiftlark 4.6 and Rostrella 4.4.",
    "Rostrella offers a 14-day trial, Shiftlark a 30-day trial.")

src("https://galleyscore.com/compare/tabbrook-vs-mizeledger", "Tabbrook vs Mizeledger for restaurant payroll", "2026-03-28",
    "Tabbrook is a payroll specialist; Mizeledger is a back office suite where payroll is one module.",
    "Tabbrook Complete costs $129 a month plus $10 per employee, while Mizeledger includes payroll only in Full Back Office at $329 per location per month.",
    "For a single location with 40 employees, Tabbrook Complete comes to $529 a month and Mizeledger Full Back Office to $329 a month, but Mizeledger adds inventory and accounts payable.",
    "Mizeledger runs Canadian payroll, and Tabbrook does not.",
    "Tabbrook files Form 8027 automatically; Mizeledger users export the data.",
    "Tabbrook implementations take about six weeks; Mizeledger's take 8 to 10 weeks for groups over 20 locations.")

# ---------------- The Pass Report (trade press) ----------------
src("https://thepassreport.com/2026/01/gratuvo-raises-16-million-series-a", "Gratuvo raises $16 million to pay restaurant tips the same night", "2026-01-09",
    "Gratuvo, the Miami tip payout startup, has raised $16 million in a Series A round led by Saltmarsh Partners.",
    "Existing investor Pierhead Capital, which led Gratuvo's $4.5 million seed round in 2021, also took part.",
    "Gratuvo charges restaurants $3 to $5 a month per employee and says it pays out more than $90 million in tips monthly across 2,600 restaurants and bars.",
    "Rival tip tools are mostly modules inside bigger suites: Shiftlark Tips is part of Shiftlark's $99 Plus plan, and Tabbrook includes tip reporting in its Complete plan.",
    "Gratuvo's co-founder and CEO Camila Dunleavy said the company will enter Canada in the second half of 2026.",
    "Gratuvo employs 72 people.")

src("https://thepassreport.com/2025/10/rostrella-series-b", "Rostrella lands £22 million to take its rota app to America", "2025-10-21",
    "Manchester-based Rostrella has closed a £22 million Series B led by Kestrelmoor Capital, the company said on October 21, 2025.",
    "The round values Rostrella at about £140 million, according to two people familiar with the deal.",
    "Rostrella, which says more than 11,000 UK and Irish venues use its rotas, plans to open a US office in early 2026.",
    "Chief executive Fiona Castellane said the US launch will start with independent restaurants in the Northeast.",
    "Rostrella's revenue grew 45 percent in its last financial year to £19 million.",
    "UK rota apps have struggled to cross the Atlantic, where Shiftlark and Counterbell are entrenched.")

src("https://thepassreport.com/2026/04/shiftlark-launches-payroll", "Shiftlark moves into payroll, taking on Tabbrook", "2026-04-15",
    "Shiftlark launched Shiftlark Payroll on April 14, 2026, putting the scheduling company in direct competition with Tabbrook, the largest payroll specialist for restaurants.",
    "Shiftlark Payroll costs $8 per employee per month plus a $40 base fee, against Tabbrook's Core Payroll at $79 a month plus $7 per employee.",
    "For a 40-person restaurant on Shiftlark Plus, payroll adds $360 a month.",
    "Tabbrook CEO Harlan Vosburgh said in a statement that restaurant groups need a payroll specialist, not a payroll tab.",
    "Shiftlark has 9,000 restaurant customers but will need to win trust on taxes, where Tabbrook has a 12-year record.",
    "Ardmoor Research estimates that fewer than one in five independent restaurants use a restaurant-specific payroll provider.")

src("https://thepassreport.com/2023/07/counterbell-series-a", "Counterbell raises $21 million Series A for franchise workforce software", "2023-07-19",
    "Counterbell, a Dallas startup that sells scheduling and hiring software to quick-service franchisees, raised a $21 million Series A led by Redtail Growth on July 18, 2023.",
    "The company had previously raised a $3.5 million seed round from Lonestar Angels in 2020.",
    "Counterbell said it was used in 2,700 locations at the time of the round and charges between $25 and $40 a week per location.",
    "CEO Dominic Harrow said the money would go to a payroll product and to sales teams in the Southeast.",
    "Counterbell had 60 employees at the time of the round.")

# ---------------- Ardmoor Research (analyst) ----------------
src("https://ardmoorresearch.com/notes/restaurant-workforce-software-2026", "Restaurant workforce software: market note 2026", "2026-02-25",
    "US and Canadian restaurants spent an estimated $2.4 billion on workforce software in 2025, and Ardmoor Research expects the market to grow 11 percent a year through 2029.",
    "Scheduling is the most crowded segment: Shiftlark leads independent full-service restaurants, Counterbell leads quick-service franchisees, and Rostrella is entering from the UK.",
    "In payroll, Tabbrook is the largest restaurant specialist with an estimated 14 percent share of restaurant payroll among groups with 10 or more locations.",
    "Mizeledger competes for multi-unit groups with a broader back office and wins most often in Canada.",
    "Gratuvo is the fastest-growing tip management vendor; its weakness is that it depends on partners for scheduling and payroll.",
    "We expect at least two acquisitions in the segment in 2026, with payroll providers buying scheduling or tip tools.",
    "Vendors that combine scheduling, tips and payroll will have a pricing advantage because restaurants pay one bill per location.")

src("https://ardmoorresearch.com/notes/mizeledger-vendor-profile-2026", "Vendor profile: Mizeledger", "2026-03-09",
    "Mizeledger is a Toronto-based back office vendor for multi-unit restaurant groups, founded in 2015 and led by CEO Anand Petrossian.",
    "We estimate Mizeledger's ARR at US$41 million at the end of 2025.",
    "Strengths: prime cost reporting by the next morning, Canadian payroll, and inventory and labor in one product.",
    "Weaknesses: US payroll tax filing has had delays, implementation is slow at 8 to 10 weeks for large groups, and the per-location price is high for groups under 10 locations.",
    "Mizeledger's list prices run from $149 to $329 a location each month, and the one-time onboarding fee is $1,500.",
    "Typical customers run 15 to 80 locations.",
    "Mizeledger's US expansion is led by senior vice president of sales Bridget Oyelaran from Chicago.")

# ---------------- Owners' Table (forum) ----------------
src("https://ownerstable.net/threads/tip-pooling-software-recommendations", "Tip pooling software recommendations? 2 locations, 55 staff", "2026-02-03",
    "Posted by brasserie_owner: We have two locations and 55 staff, and our tip pool spreadsheet is a nightmare.",
    "Looking at Gratuvo and Shiftlark Tips.",
    "Anyone using either?",
    "Reply from gm_portland: We use Shiftlark Plus at $99 a location, which already includes Shiftlark Tips, so it made no sense to pay extra for a separate tool.",
    "Reply from barbackbetty: Gratuvo is great if your staff want tips the same night.",
    "We pay about $275 a month for 55 people on the Payout plan.",
    "Reply from brasserie_owner: How long did setup take?",
    "Reply from barbackbetty: Gratuvo was live in a day for us.",
    "Only catch is it does not work with Menuvault yet.",
    "Reply from tacos_and_taxes: Just make sure whatever you use handles the tip credit correctly.",
    "We got burned by our old payroll company and moved to Tabbrook last year.")

src("https://ownerstable.net/threads/leaving-tabbrook-for-shiftlark-payroll", "Leaving Tabbrook for Shiftlark Payroll - worth it?", "2026-05-07",
    "Posted by smokehouse_sam: We run 4 barbecue restaurants with about 120 employees on Tabbrook Complete, paying around $1,300 a month.",
    "Shiftlark Payroll would be about $1,000 a month since we already pay for Shiftlark Plus.",
    "Has anyone switched?",
    "Reply from controller_kate: We switched 3 locations in May.",
    "Year-to-date totals moved over cleanly, and the first parallel payroll took two pay periods.",
    "Reply from oldschool_ops: Tabbrook's interface is dated, but their tax team caught a state unemployment rate change that would have cost us thousands.",
    "I would not leave for a product that launched in April.",
    "Reply from smokehouse_sam: Fair.",
    "Tabbrook offered us 10 percent off if we sign for two years, so we may stay.",
    "Reply from controller_kate: The one thing Shiftlark is missing is Form 8027, which they say ships in the third quarter.")

# ---------------- Toque Board (job board) ----------------
src("https://toqueboard.com/jobs/shiftlark-account-executive-portland", "Account Executive, Mid-Market - Shiftlark - Portland, OR", "2026-04-28",
    "Shiftlark is hiring a Mid-Market Account Executive to sell Shiftlark Plus, Premium and Shiftlark Payroll to restaurant groups with 5 to 30 locations.",
    "The base salary is $78,000 to $92,000, with on-target earnings of $150,000 to $170,000 and equity.",
    "You will carry a quota of about $720,000 in new annual recurring revenue.",
    "You have at least three years of SaaS sales experience; restaurant experience is a plus.",
    "This role is hybrid, three days a week in our Portland, Oregon office.",
    "Shiftlark offers medical, dental and vision coverage, 401(k) matching up to 4 percent, and a $500 yearly dining stipend.",
    "Shiftlark has roughly 180 employees and is backed by Halberd Ventures.")

src("https://toqueboard.com/jobs/tabbrook-payroll-implementation-specialist", "Payroll Implementation Specialist - Tabbrook - Columbus, OH", "2026-03-03",
    "Tabbrook is looking for a Payroll Implementation Specialist to move restaurant groups onto Tabbrook payroll.",
    "You will run 8 to 12 implementations at a time, each typically six weeks from kickoff to first live payroll.",
    "Pay is $58,000 to $68,000 a year plus a quarterly bonus of up to 8 percent of salary.",
    "Experience with multi-state payroll and tip reporting is required; a Certified Payroll Professional credential is preferred.",
    "The position is on-site at Tabbrook's Columbus, Ohio headquarters.",
    "Tabbrook employs more than 600 people and has been profitable since 2016.")

src("https://toqueboard.com/jobs/mizeledger-senior-account-executive-toronto", "Senior Account Executive - Mizeledger - Toronto, ON", "2026-02-12",
    "Mizeledger is hiring a Senior Account Executive in Toronto to sell Full Back Office to restaurant groups with 10 to 100 locations in Canada.",
    "Base pay is CAD $85,000 to $95,000, and on-target earnings are CAD $170,000 with uncapped commission.",
    "We are also hiring Sales Development Representatives in Toronto at a salary range of CAD $55,000 to $62,000 plus bonus.",
    "Sales cycles run three to five months and deals average CAD $90,000 a year.",
    "You report to Bridget Oyelaran, senior vice president of sales.",
    "Mizeledger has about 310 employees and offices in Toronto and Chicago.")

src("https://toqueboard.com/jobs/counterbell-customer-success-manager-dallas", "Customer Success Manager, Franchise - Counterbell - Dallas, TX", "2026-04-15",
    "Counterbell is hiring a Customer Success Manager to look after franchisees with 20 to 150 quick-service locations.",
    "The salary is $72,000 to $84,000 plus a bonus of up to $12,000 tied to renewals and expansion.",
    "You will manage about 35 franchise accounts and visit customers in Texas, Oklahoma and Louisiana about once a month.",
    "Experience as a restaurant general manager or franchise area coach is a strong plus.",
    "Counterbell has 140 employees and is headquartered in Dallas, Texas.")

src("https://toqueboard.com/jobs/rostrella-account-executive-boston", "Account Executive, US - Rostrella - Boston, MA", "2026-03-12",
    "Rostrella is building its first US sales team in Boston and is hiring Account Executives to sell Rota Pro to independent restaurants in the Northeast.",
    "Base pay is $70,000 to $80,000, with on-target earnings of $130,000.",
    "You will report to Jordan Whitcombe, general manager for North America.",
    "Rostrella is a Manchester company with around 220 people, used by more than 11,000 venues in the UK and Ireland.",
    "Rostrella offers 25 days of paid vacation, a hybrid schedule and a relocation budget of up to $10,000.")

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
