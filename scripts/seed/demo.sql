-- Demo data for LOCAL development only: `npm run db:local` and `npm run dev` apply it after the
-- migrations, and the e2e tests seed it into a temporary directory. Never apply it to a deployed
-- database: its keys are public (they are written in the spec's decisions.md).
--
-- Idempotent: every INSERT is ON CONFLICT DO NOTHING, so running it again changes nothing (and does
-- not undo edits made through the API, e.g. a PUT /api/v1/profile on a demo organization).
--
--   acme    "Acme Analytics", sales profile finished   key rk_test_acme_0000000000000000000000000000
--   globex  "Globex", sales profile NOT finished (428)  key rk_test_globex_00000000000000000000000000
--
-- Keys are stored as the table stores every key: hex SHA-256 of the exact key string (hashApiKey in
-- src/ground/api-key.ts) and a display prefix (first 12 characters + "…"). To check a hash:
--   printf %s 'rk_test_acme_0000000000000000000000000000' | sha256sum

INSERT INTO organizations (id, slug, name, created_at) VALUES
  ('org_demo_acme',   'acme',   'Acme Analytics', '2026-11-01T00:00:00.000Z'),
  ('org_demo_globex', 'globex', 'Globex',         '2026-11-01T00:00:00.000Z')
ON CONFLICT DO NOTHING;

INSERT INTO api_keys (id, organization_id, name, prefix, hash, scopes, created_at) VALUES
  ('key_demo_acme', 'org_demo_acme', 'demo',
   'rk_test_acme…', '2ac421b5db45398ec12a7922655f23f755bfdf50641398155fb684c76fbfb040',
   'commands oms:read oms:write oms:approve', '2026-11-01T00:00:00.000Z'),
  ('key_demo_globex', 'org_demo_globex', 'demo',
   'rk_test_glob…', '0838df1b7a4a3bcaecace0de50dc72d80aad637e3811727584b6f8386427ae90',
   'commands oms:read oms:write oms:approve', '2026-11-01T00:00:00.000Z')
ON CONFLICT DO NOTHING;

-- json() checks and compacts the documents, so they are stored as PUT /api/v1/profile stores them.
-- acme: every SalesProfile field present, so commands run.
-- globex: only a name and domain (no offering, empty ICP), so every command but help answers 428.
INSERT INTO sales_profiles (organization_id, profile, complete, updated_at) VALUES
  ('org_demo_acme', json('{
    "companyName": "Acme Analytics",
    "domain": "acme.com",
    "offering": "Product analytics for B2B SaaS companies: event tracking, funnels, retention and account-level usage dashboards that product, growth and revenue teams share.",
    "icp": {
      "industries": ["B2B SaaS", "Developer tools", "Fintech"],
      "companySizes": ["51-200", "201-1000"],
      "regions": ["North America", "Western Europe"],
      "personas": ["VP Product", "Head of Growth", "Revenue Operations Lead"]
    },
    "competitors": ["globex.com", "funnelwise.io", "pulsegrid.io", "quillmetrics.com"],
    "valueProps": [
      "Account-level analytics built for B2B, not consumer apps",
      "Dashboards in minutes without writing SQL",
      "Product usage signals synced to the CRM for expansion and churn plays"
    ]
  }'), 1, '2026-11-01T00:00:00.000Z'),
  ('org_demo_globex', json('{
    "companyName": "Globex",
    "domain": "globex.com",
    "icp": { "industries": [], "companySizes": [], "regions": [], "personas": [] },
    "competitors": [],
    "valueProps": []
  }'), 0, '2026-11-01T00:00:00.000Z')
ON CONFLICT DO NOTHING;
