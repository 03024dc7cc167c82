-- Issue 23: an organization's page budget per site read (PUT /api/v1/oms/sites/settings): the
-- pages a read requests when its request names none (reads on onboarding and before watches too).
-- NULL: the default, 50.
ALTER TABLE organizations ADD COLUMN site_read_pages INTEGER CHECK (site_read_pages BETWEEN 1 AND 500);
