-- Issue 16: research reads the facts of each passage's sentences (where each citable sentence lies
-- in the passage, its hash, stems, answer types, informativeness and figures; see
-- src/research/sentence-facts.ts) instead of splitting and stemming every candidate sentence on
-- every call. The import computes them when it writes the passage. Rows indexed before this
-- migration keep NULL (SQL cannot stem): research computes their facts from the text when it reads
-- them, and re-importing a source stores them. facts_version says which FACTS_VERSION computed them.
ALTER TABLE passages ADD COLUMN facts TEXT;
ALTER TABLE passages ADD COLUMN facts_version INTEGER;
