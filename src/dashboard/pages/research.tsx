/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { callOperation } from '../../operations/call.ts';
import type { CommandResult } from '../../operations/definition.ts';
import { operationById } from '../../operations/index.ts';
import { BriefArticle, briefPath } from '../brief-view.tsx';
import { Field } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { readForm, text } from '../form.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * Research (issue 26, part 1): the `research` and `competitors` commands from a form, called by id
 * through callOperation, as POST /api/v1/commands/{name} and the MCP tools call them: the same
 * `commands` rate limit (counted for the signed-in person), checks and work. The answer is shown
 * rendered (brief-view.tsx); a research
 * brief is also stored, and this page links it on the briefs page.
 */
export const research = new Hono<SignedInEnv>();

const PATH = '/dashboard/research';
const TIERS = [
  { value: 'lite', label: 'Lite: fewer sources, quicker' },
  { value: 'base', label: 'Base: more sources and findings' },
] as const;

const RESEARCH = operationById('research');
const COMPETITORS = operationById('competitors');

interface ResearchValues {
  topic: string;
  userContext: string;
  tier: string;
}

interface CompetitorsValues {
  company: string;
}

interface Answer {
  /** Which form it answers. */
  of: 'research' | 'competitors';
  markdown: string;
  /** The stored brief's key (research only). */
  brief?: string;
}

function TierChoice({ value }: { value: string }) {
  return (
    <fieldset>
      <legend>Depth</legend>
      {TIERS.map((tier) => (
        <div>
          <input type="radio" id={`field-tier-${tier.value}`} name="tier" value={tier.value} checked={value === tier.value} />{' '}
          <label for={`field-tier-${tier.value}`}>{tier.label}</label>
        </div>
      ))}
    </fieldset>
  );
}

function ResearchPage({
  research: values,
  competitors,
  researchErrors,
  competitorsErrors,
  answer,
}: {
  research: ResearchValues;
  competitors: CompetitorsValues;
  researchErrors?: FormErrors;
  competitorsErrors?: FormErrors;
  answer?: Answer;
}) {
  return (
    <>
      <section aria-labelledby="research-title">
        <h2 id="research-title">Research a topic</h2>
        <p>Recon reads your knowledge base (and the web, where a provider is set up) and writes a brief whose every finding cites its source. Each brief is kept on the <a href="/dashboard/briefs">Briefs</a> page.</p>
        <form method="post" action={PATH}>
          <ErrorSummary errors={researchErrors} />
          <Field name="topic" label="Topic" hint='What to research, 1-500 characters, e.g. "Acme Analytics pricing".' value={values.topic} errors={researchErrors} required maxlength={500} />
          <Field name="userContext" label="Context (optional)" hint="Anything the research should know, in plain words (at most 4000 characters)." value={values.userContext} errors={researchErrors} multiline maxlength={4000} />
          <TierChoice value={values.tier} />
          <button type="submit">Research</button>
        </form>
      </section>
      {answer?.of === 'research' ? <Result answer={answer} /> : null}
      <section aria-labelledby="competitors-title">
        <h2 id="competitors-title">Analyse competitors</h2>
        <p>Ranks a company's competitors by the evidence in your sources, with their price, strengths and weaknesses quoted and cited.</p>
        <form method="post" action={`${PATH}/competitors`}>
          <ErrorSummary errors={competitorsErrors} />
          <Field name="company" label="Company" hint="A domain or a name, e.g. acme.com; leave empty for your own organization." value={competitors.company} errors={competitorsErrors} maxlength={253} />
          <button type="submit">Analyse competitors</button>
        </form>
      </section>
      {answer?.of === 'competitors' ? <Result answer={answer} /> : null}
    </>
  );
}

function Result({ answer }: { answer: Answer }) {
  const label = answer.of === 'research' ? 'Brief' : 'Competitors';
  return (
    <section aria-labelledby="result-title" class="result">
      <h2 id="result-title">{answer.of === 'research' ? 'The brief' : 'The competitors'}</h2>
      {answer.brief ? (
        <p role="status">
          Kept as a brief: <a href={briefPath(answer.brief)}>open it again later</a>. Source links open in a new tab.
        </p>
      ) : (
        <p class="muted">Source links open in a new tab.</p>
      )}
      <BriefArticle markdown={answer.markdown} label={label} />
    </section>
  );
}

const EMPTY_RESEARCH: ResearchValues = { topic: '', userContext: '', tier: 'lite' };
const EMPTY_COMPETITORS: CompetitorsValues = { company: '' };

research.get('/', (c) => c.render(<ResearchPage research={EMPTY_RESEARCH} competitors={EMPTY_COMPETITORS} />, { title: 'Research' }));

research.post('/', async (c) => {
  const form = await readForm(c);
  const values: ResearchValues = { topic: text(form, 'topic'), userContext: text(form, 'userContext'), tier: text(form, 'tier') || 'lite' };
  const input = { topic: values.topic, tier: values.tier, ...(values.userContext.trim() ? { userContext: values.userContext } : {}) };
  try {
    const result = (await callOperation(c.var.core, RESEARCH, input, 'arguments of research')).output as CommandResult;
    if (result.mode !== 'sync') throw new Error('research answered with a run');
    const brief = typeof result.data.brief === 'string' ? result.data.brief : undefined;
    return c.render(<ResearchPage research={values} competitors={EMPTY_COMPETITORS} answer={{ of: 'research', markdown: result.markdown, brief }} />, {
      title: 'Research',
    });
  } catch (error) {
    // 400 (a field), 428 (the sales profile is not finished), 429 (the minute's commands are spent).
    const errors = refused(c, error, { fields: ['topic', 'userContext', 'tier'] });
    return c.render(<ResearchPage research={values} competitors={EMPTY_COMPETITORS} researchErrors={errors} />, { title: 'Research' });
  }
});

research.post('/competitors', async (c) => {
  const form = await readForm(c);
  const values: CompetitorsValues = { company: text(form, 'company') };
  const input = values.company.trim() ? { company: values.company } : {};
  try {
    const result = (await callOperation(c.var.core, COMPETITORS, input, 'arguments of competitors')).output as CommandResult;
    if (result.mode !== 'sync') throw new Error('competitors answered with a run');
    return c.render(<ResearchPage research={EMPTY_RESEARCH} competitors={values} answer={{ of: 'competitors', markdown: result.markdown }} />, { title: 'Research' });
  } catch (error) {
    const errors = refused(c, error, { fields: ['company'] });
    return c.render(<ResearchPage research={EMPTY_RESEARCH} competitors={values} competitorsErrors={errors} />, { title: 'Research' });
  }
});
