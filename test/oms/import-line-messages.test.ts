import { describe, expect, it } from 'vitest';
import { createOrganization } from '../helpers/fixtures.ts';
import { importBody, ndjson } from './import-helpers.ts';

describe('import line errors', () => {
  it('name the field and what it allows, in the words of command arguments', async () => {
    const org = await createOrganization();
    const response = await importBody(
      org.key,
      ndjson(
        { type: 'company', key: 'acme.com', properties: { name: 5 } },
        { type: 'persn', key: 'a@acme.com' },
        { type: 'person', key: 'nope' },
        { link: 'competitors', from: { type: 'company', key: 'acme.com' }, too: { type: 'company', key: 'globex.com' } },
      ),
    );
    expect(response.status).toBe(200);
    const result = await response.json<{ failed: number; errors: { line: number; message: string }[] }>();
    expect(result.errors.map(({ line, message }) => ({ line, message }))).toEqual([
      { line: 1, message: 'properties.name must be a string of 1 to 200 characters, not a number' },
      { line: 2, message: 'type must be one of "company", "person", "source", not "persn"' },
      { line: 3, message: 'key must be an email address' },
      { line: 4, message: "to is required: an object with the fields type, key; unknown field 'too' (did you mean 'to'?)" },
    ]);
  });
});
