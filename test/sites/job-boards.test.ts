import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_ROLES,
  JOB_BOARD_API_HOSTS,
  MAX_ROLE_FIELD_CHARS,
  MAX_ROLE_TEXT_CHARS,
  jobBoardOf,
  parseJobBoard,
} from '../../src/sites/job-boards.ts';
import type { JobRole, ParsedJobBoard } from '../../src/sites/job-boards.ts';
import { SOURCE_TITLE_MAX_CHARS } from '../../src/oms/object-types.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const bytes = (text: string) => new TextEncoder().encode(text);

/** Greenhouse's GET /v1/boards/{token}/jobs?content=true, as it answers: `content` is HTML escaped once more. */
const GREENHOUSE = {
  jobs: [
    {
      id: 4012345006,
      internal_job_id: 3011111006,
      title: 'Senior Backend Engineer',
      updated_at: '2026-03-02T11:04:09-05:00',
      requisition_id: 'ENG-42',
      location: { name: 'Berlin, Germany' },
      absolute_url: 'https://job-boards.greenhouse.io/acme/jobs/4012345006',
      metadata: null,
      content:
        '&lt;div class=&quot;content-intro&quot;&gt;&lt;p&gt;Acme builds billing for SaaS.&lt;/p&gt;&lt;/div&gt;&lt;h3&gt;What you&amp;#39;ll do&lt;/h3&gt;&lt;ul&gt;&lt;li&gt;Own the invoicing service&lt;/li&gt;&lt;li&gt;Scale Postgres &amp;amp; Kafka&lt;/li&gt;&lt;/ul&gt;',
      departments: [{ id: 1, name: 'Engineering', child_ids: [], parent_id: null }],
      offices: [{ id: 2, name: 'Berlin', location: 'Berlin, Germany' }],
    },
    {
      id: 4012345007,
      title: 'Account Executive, DACH',
      updated_at: '2026-02-20T09:00:00Z',
      location: { name: 'Remote - Germany' },
      absolute_url: 'https://job-boards.greenhouse.io/acme/jobs/4012345007',
      content: '&lt;p&gt;Sell to mid-market.&lt;/p&gt;',
      departments: [],
    },
  ],
  meta: { total: 2 },
};

/** Lever's GET /v0/postings/{site}?mode=json: an array of postings. */
const LEVER = [
  {
    id: '5f1c2a3b-1111-4c4c-9999-0a0b0c0d0e0f',
    text: 'Product Designer',
    categories: { commitment: 'Full-time', department: 'Product', location: 'London', team: 'Design', allLocations: ['London'] },
    country: 'GB',
    createdAt: 1772445600000, // 2026-03-02T10:00:00Z
    descriptionPlain: 'We design the billing UI.\n',
    description: '<div>We design the <b>billing</b> UI.</div>',
    lists: [
      { text: 'What you will do', content: '<li>Run research</li><li>Ship Figma files</li>' },
      { text: 'Who you are', content: '<li>5 years of product design</li>' },
    ],
    additionalPlain: 'We offer equity.',
    additional: '<div>We offer equity.</div>',
    hostedUrl: 'https://jobs.lever.co/acme/5f1c2a3b-1111-4c4c-9999-0a0b0c0d0e0f',
    applyUrl: 'https://jobs.lever.co/acme/5f1c2a3b-1111-4c4c-9999-0a0b0c0d0e0f/apply',
    workplaceType: 'hybrid',
  },
  {
    id: 'b2',
    text: 'Support Specialist',
    categories: { department: 'Customer', location: 'Lisbon' },
    createdAt: 1770000000000,
    descriptionPlain: 'Help customers.\nIn Portuguese & English.',
    hostedUrl: 'https://jobs.lever.co/acme/b2',
  },
];

/** Ashby's GET /posting-api/job-board/{name}. */
const ASHBY = {
  apiVersion: '1',
  jobs: [
    {
      id: '0b1c7a4e-aaaa-bbbb-cccc-123456789abc',
      title: 'Solutions Engineer',
      department: 'Sales',
      team: 'Solutions',
      employmentType: 'FullTime',
      location: 'New York',
      secondaryLocations: [],
      publishedAt: '2026-01-15T16:00:00.000+00:00',
      isListed: true,
      isRemote: false,
      jobUrl: 'https://jobs.ashbyhq.com/acme/0b1c7a4e-aaaa-bbbb-cccc-123456789abc',
      applyUrl: 'https://jobs.ashbyhq.com/acme/0b1c7a4e-aaaa-bbbb-cccc-123456789abc/application',
      descriptionHtml: '<h2>About the role</h2><p>Run technical evaluations.</p>',
      descriptionPlain: 'About the role\nRun technical evaluations.',
    },
    { id: 'hidden', title: 'Confidential search', isListed: false, jobUrl: 'https://jobs.ashbyhq.com/acme/hidden', descriptionPlain: 'x' },
    { id: 'c3', title: 'Data Analyst', department: 'Finance', jobUrl: '', applyUrl: 'https://jobs.ashbyhq.com/acme/c3/application', descriptionPlain: 'SQL.' },
  ],
};

function rolesOf(parsed: ParsedJobBoard): Extract<ParsedJobBoard, { ok: true }> {
  if (!parsed.ok) throw new Error(`refused: ${parsed.reason}`);
  return parsed;
}

function greenhouseJob(overrides: Record<string, unknown>, i = 1): Record<string, unknown> {
  return { id: i, title: `Role ${i}`, location: { name: 'Remote' }, absolute_url: `https://job-boards.greenhouse.io/acme/jobs/${i}`, content: '', ...overrides };
}

describe('jobBoardOf', () => {
  it('recognizes Greenhouse boards, old and new hosts, any page under them, and the embed', () => {
    const board = { kind: 'greenhouse', token: 'acme', apiUrl: 'https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true', boardUrl: 'https://job-boards.greenhouse.io/acme' };
    expect(jobBoardOf('https://boards.greenhouse.io/acme')).toEqual(board);
    expect(jobBoardOf('https://job-boards.greenhouse.io/acme/jobs/4012345006?gh_src=careers')).toEqual(board);
    expect(jobBoardOf('https://boards.greenhouse.io/embed/job_board?for=acme&b=https%3A%2F%2Facme.test%2Fcareers')).toEqual(board);
  });

  it('recognizes Lever and Ashby boards', () => {
    expect(jobBoardOf('https://jobs.lever.co/acme-inc/5f1c?lever-source=careers')).toEqual({
      kind: 'lever',
      token: 'acme-inc',
      apiUrl: 'https://api.lever.co/v0/postings/acme-inc?mode=json',
      boardUrl: 'https://jobs.lever.co/acme-inc',
    });
    expect(jobBoardOf('https://jobs.ashbyhq.com/Acme.io/0b1c7a4e/application')).toEqual({
      kind: 'ashby',
      token: 'Acme.io',
      apiUrl: 'https://api.ashbyhq.com/posting-api/job-board/Acme.io',
      boardUrl: 'https://jobs.ashbyhq.com/Acme.io',
    });
  });

  it('refuses other hosts, other schemes, and board pages without a board', () => {
    for (const url of [
      'https://acme.test/careers',
      'https://greenhouse.io/acme',
      'https://jobs.lever.co.evil.test/acme',
      'https://evil.test/jobs.lever.co/acme',
      'ftp://jobs.lever.co/acme',
      'https://jobs.lever.co/',
      'https://boards.greenhouse.io/embed/job_board',
      'https://boards.greenhouse.io/embed/job_board?for=',
      'not a url',
    ]) {
      expect(jobBoardOf(url), url).toBeUndefined();
    }
  });

  it('refuses board names that are not a plain token', () => {
    for (const url of [
      'https://jobs.lever.co/%2e%2e',
      'https://jobs.ashbyhq.com/acme%2Fother',
      'https://jobs.ashbyhq.com/a%20b',
      `https://jobs.lever.co/${'a'.repeat(101)}`,
      'https://boards.greenhouse.io/embed/job_board?for=acme/../x',
      'https://jobs.lever.co/%E0%A4%A',
    ]) {
      expect(jobBoardOf(url), url).toBeUndefined();
    }
  });

  it('names the API hosts its boards are read from', () => {
    const boards = ['https://boards.greenhouse.io/a', 'https://jobs.lever.co/a', 'https://jobs.ashbyhq.com/a'].map((url) => jobBoardOf(url)!);
    expect(boards.map((board) => new URL(board.apiUrl).hostname)).toEqual([...JOB_BOARD_API_HOSTS]);
  });
});

describe('parseJobBoard: Greenhouse', () => {
  it('reads each job, its escaped content decoded once and read as HTML', async () => {
    const parsed = rolesOf(await parseJobBoard('greenhouse', JSON.stringify(GREENHOUSE), JSON_TYPE));
    expect(parsed).toMatchObject({ total: 2, truncated: false, dropped: 0 });
    expect(parsed.roles[0]).toEqual<JobRole>({
      id: '4012345006',
      title: 'Senior Backend Engineer',
      location: 'Berlin, Germany',
      team: 'Engineering',
      url: 'https://job-boards.greenhouse.io/acme/jobs/4012345006',
      text: [
        'Senior Backend Engineer',
        'Location: Berlin, Germany',
        'Team: Engineering',
        'Acme builds billing for SaaS.',
        'What you\'ll do',
        'Own the invoicing service',
        'Scale Postgres & Kafka',
      ].join('\n\n'),
      updatedAt: '2026-03-02',
    });
  });

  it('leaves out a team when the job has no department', async () => {
    const parsed = rolesOf(await parseJobBoard('greenhouse', bytes(JSON.stringify(GREENHOUSE)), JSON_TYPE));
    expect(parsed.roles[1]).toEqual({
      id: '4012345007',
      title: 'Account Executive, DACH',
      location: 'Remote - Germany',
      url: 'https://job-boards.greenhouse.io/acme/jobs/4012345007',
      text: 'Account Executive, DACH\n\nLocation: Remote - Germany\n\nSell to mid-market.',
      updatedAt: '2026-02-20',
    });
  });
});

describe('parseJobBoard: Lever', () => {
  it('reads a posting: description, its lists with their headings, and the closing text', async () => {
    const parsed = rolesOf(await parseJobBoard('lever', JSON.stringify(LEVER), JSON_TYPE));
    expect(parsed.roles[0]).toEqual<JobRole>({
      id: '5f1c2a3b-1111-4c4c-9999-0a0b0c0d0e0f',
      title: 'Product Designer',
      location: 'London',
      team: 'Design',
      url: 'https://jobs.lever.co/acme/5f1c2a3b-1111-4c4c-9999-0a0b0c0d0e0f',
      text: [
        'Product Designer',
        'Location: London',
        'Team: Design',
        'We design the billing UI.',
        'What you will do',
        'Run research',
        'Ship Figma files',
        'Who you are',
        '5 years of product design',
        'We offer equity.',
      ].join('\n\n'),
      updatedAt: '2026-03-02',
    });
  });

  it('falls back to the department for the team and to plain text for the description', async () => {
    const parsed = rolesOf(await parseJobBoard('lever', JSON.stringify(LEVER), JSON_TYPE));
    expect(parsed.roles[1]).toMatchObject({
      team: 'Customer',
      text: 'Support Specialist\n\nLocation: Lisbon\n\nTeam: Customer\n\nHelp customers.\n\nIn Portuguese & English.',
      updatedAt: '2026-02-02',
    });
  });

  it('ignores a createdAt that is not a time', async () => {
    for (const createdAt of ['2026-01-01', 1e300, Number.NaN, -1e17]) {
      const posting = { ...LEVER[1], createdAt };
      const role = rolesOf(await parseJobBoard('lever', JSON.stringify([posting]), JSON_TYPE)).roles[0];
      expect(role?.updatedAt, String(createdAt)).toBeUndefined();
    }
  });
});

describe('parseJobBoard: Ashby', () => {
  it('reads listed jobs, skips unlisted ones without counting them, and falls back to the apply URL', async () => {
    const parsed = rolesOf(await parseJobBoard('ashby', JSON.stringify(ASHBY), JSON_TYPE));
    expect(parsed).toMatchObject({ total: 2, dropped: 0, truncated: false });
    expect(parsed.roles).toEqual<JobRole[]>([
      {
        id: '0b1c7a4e-aaaa-bbbb-cccc-123456789abc',
        title: 'Solutions Engineer',
        location: 'New York',
        team: 'Solutions',
        url: 'https://jobs.ashbyhq.com/acme/0b1c7a4e-aaaa-bbbb-cccc-123456789abc',
        text: 'Solutions Engineer\n\nLocation: New York\n\nTeam: Solutions\n\nAbout the role\n\nRun technical evaluations.',
        updatedAt: '2026-01-15',
      },
      {
        id: 'c3',
        title: 'Data Analyst',
        team: 'Finance',
        url: 'https://jobs.ashbyhq.com/acme/c3/application',
        text: 'Data Analyst\n\nTeam: Finance\n\nSQL.',
      },
    ]);
  });
});

describe('parseJobBoard: what a board should not send', () => {
  it('HTML instead of JSON', async () => {
    const page = '<!DOCTYPE html><html><body>Page not found</body></html>';
    expect(await parseJobBoard('greenhouse', page, 'text/html')).toEqual({ ok: false, reason: 'the Greenhouse board answered HTML, not JSON' });
    expect(await parseJobBoard('lever', `\n  ${page}`, JSON_TYPE)).toEqual({ ok: false, reason: 'the Lever board answered HTML, not JSON' });
    expect(await parseJobBoard('ashby', 'Not Found', 'text/html; charset=utf-8')).toEqual({ ok: false, reason: 'the Ashby board answered HTML, not JSON' });
  });

  it('garbage, and nothing', async () => {
    expect(await parseJobBoard('lever', bytes('\u0000\u0001garbage{'), JSON_TYPE)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('the Lever board answered something that is not JSON'),
    });
    expect(await parseJobBoard('ashby', '', JSON_TYPE)).toEqual({ ok: false, reason: 'the Ashby board answered nothing' });
  });

  it('JSON of the wrong shape', async () => {
    expect(await parseJobBoard('lever', '{"ok": false, "error": "Document not found"}', JSON_TYPE)).toEqual({
      ok: false,
      reason: 'the Lever board answered JSON without an array of postings',
    });
    for (const body of ['[]', '{"jobs": {"0": {}}}', 'null', '"jobs"', '{"meta": {"total": 3}}']) {
      expect(await parseJobBoard('greenhouse', body, JSON_TYPE), body).toEqual({ ok: false, reason: 'the Greenhouse board answered JSON without a jobs array' });
    }
  });

  it('an empty board is a board with no roles', async () => {
    expect(await parseJobBoard('greenhouse', '{"jobs": [], "meta": {"total": 0}}', JSON_TYPE)).toEqual({ ok: true, roles: [], total: 0, truncated: false, dropped: 0 });
  });

  it('drops, and counts, roles without a title or an http(s) URL, and entries that are not objects', async () => {
    const jobs = [
      greenhouseJob({ title: '' }, 1),
      greenhouseJob({ title: '   ' }, 2),
      greenhouseJob({ title: 42 }, 3),
      greenhouseJob({ absolute_url: undefined }, 4),
      greenhouseJob({ absolute_url: 'javascript:alert(1)' }, 5),
      greenhouseJob({ absolute_url: '/jobs/6' }, 6),
      greenhouseJob({ absolute_url: `https://acme.test/${'a'.repeat(2_100)}` }, 7),
      null,
      'job',
      greenhouseJob({}, 8),
    ];
    const parsed = rolesOf(await parseJobBoard('greenhouse', JSON.stringify({ jobs }), JSON_TYPE));
    expect(parsed.roles.map((role) => role.id)).toEqual(['8']);
    expect(parsed).toMatchObject({ total: 10, dropped: 9 });
  });

  it('strips user:password from a role URL', async () => {
    const jobs = [greenhouseJob({ absolute_url: 'https://user:pw@job-boards.greenhouse.io/acme/jobs/1' })];
    expect(rolesOf(await parseJobBoard('greenhouse', JSON.stringify({ jobs }), JSON_TYPE)).roles[0]?.url).toBe('https://job-boards.greenhouse.io/acme/jobs/1');
  });

  it(`keeps the first ${DEFAULT_MAX_ROLES} of 10,000 roles and counts them all`, async () => {
    const jobs = Array.from({ length: 10_000 }, (_, i) => greenhouseJob({ content: '&lt;p&gt;Do things.&lt;/p&gt;' }, i));
    const parsed = rolesOf(await parseJobBoard('greenhouse', JSON.stringify({ jobs }), JSON_TYPE));
    expect(parsed.roles).toHaveLength(DEFAULT_MAX_ROLES);
    expect(parsed.roles.at(-1)?.id).toBe(String(DEFAULT_MAX_ROLES - 1));
    expect(parsed).toMatchObject({ total: 10_000, truncated: true, dropped: 0 });
  });

  it('honours maxRoles', async () => {
    const parsed = rolesOf(await parseJobBoard('lever', JSON.stringify(LEVER), JSON_TYPE, { maxRoles: 1 }));
    expect(parsed).toMatchObject({ roles: [{ title: 'Product Designer' }], total: 2, truncated: true });
  });

  it('bounds huge fields: title, location, team and text', async () => {
    const posting = {
      ...LEVER[1],
      text: `${'Title '.repeat(200)}`,
      categories: { location: 'L'.repeat(5_000), team: 'T '.repeat(5_000) },
      descriptionPlain: 'word '.repeat(100_000),
    };
    const role = rolesOf(await parseJobBoard('lever', JSON.stringify([posting]), JSON_TYPE)).roles[0]!;
    expect(role.title.length).toBeLessThanOrEqual(SOURCE_TITLE_MAX_CHARS);
    expect(role.location!.length).toBeLessThanOrEqual(MAX_ROLE_FIELD_CHARS);
    expect(role.team!.length).toBeLessThanOrEqual(MAX_ROLE_FIELD_CHARS);
    expect(role.text.length).toBeLessThanOrEqual(MAX_ROLE_TEXT_CHARS);
    expect(role.text.length).toBeGreaterThan(MAX_ROLE_TEXT_CHARS - 100);
  });

  it('refuses an answer larger than maxBytes', async () => {
    expect(await parseJobBoard('ashby', bytes(JSON.stringify(ASHBY)), JSON_TYPE, { maxBytes: 64 })).toEqual({ ok: false, reason: 'larger than 64 bytes' });
  });

  it('ignores fields of the wrong type rather than failing', async () => {
    const jobs = [greenhouseJob({ id: { nested: true }, location: 'Berlin', departments: 'Eng', updated_at: 12, content: ['<p>x</p>'] })];
    const role = rolesOf(await parseJobBoard('greenhouse', JSON.stringify({ jobs }), JSON_TYPE)).roles[0];
    expect(role).toEqual({ id: 'https://job-boards.greenhouse.io/acme/jobs/1', title: 'Role 1', url: 'https://job-boards.greenhouse.io/acme/jobs/1', text: 'Role 1' });
  });
});
