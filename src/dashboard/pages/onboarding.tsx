/** @jsxImportSource hono/jsx */
import { Hono } from 'hono';
import { parseInput } from '../../ground/validation.ts';
import { SalesProfileInput } from '../../ground/schemas/profile.ts';
import { getProfile, putProfile, type ProfileView } from '../../operations/profile/profile.ts';
import { Field, Notice } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { lines, readForm, text } from '../form.ts';
import { ErrorSummary, refused, type FormErrors } from '../refusal.tsx';

/**
 * The sales profile form (onboarding): the profile core of GET/PUT /api/v1/profile, through its
 * zod schema; this page only turns form fields into that input and the core's messages back into
 * messages beside the fields.
 */
export const onboarding = new Hono<SignedInEnv>();

const LABELS: Record<string, string> = {
  companyName: 'Company name',
  domain: 'Company domain',
  offering: 'What you sell',
  'icp.industries': 'Industries you sell to',
  'icp.companySizes': 'Company sizes you sell to',
  'icp.regions': 'Regions you sell in',
  'icp.personas': 'Buyer personas',
  competitors: 'Competitors',
  valueProps: 'Value propositions',
};
const FIELDS = Object.keys(LABELS);
const LIST_HINT = 'One per line.';

type Values = Record<string, string>;

function valuesOf(view: ProfileView): Values {
  const { profile } = view;
  return {
    companyName: profile.companyName ?? '',
    domain: profile.domain ?? '',
    offering: profile.offering ?? '',
    'icp.industries': profile.icp.industries.join('\n'),
    'icp.companySizes': profile.icp.companySizes.join('\n'),
    'icp.regions': profile.icp.regions.join('\n'),
    'icp.personas': profile.icp.personas.join('\n'),
    competitors: profile.competitors.join('\n'),
    valueProps: profile.valueProps.join('\n'),
  };
}

/** The form's fields as PUT /api/v1/profile takes them: empty text is left out, lists are one entry per line. */
function profileInput(form: Record<string, string | string[]>): unknown {
  const optional = (name: string) => text(form, name).trim() || undefined;
  return {
    companyName: optional('companyName'),
    domain: optional('domain'),
    offering: optional('offering'),
    icp: {
      industries: lines(form, 'icp.industries'),
      companySizes: lines(form, 'icp.companySizes'),
      regions: lines(form, 'icp.regions'),
      personas: lines(form, 'icp.personas'),
    },
    competitors: lines(form, 'competitors'),
    valueProps: lines(form, 'valueProps'),
  };
}

function ProfileForm({ values, missing, errors, saved }: { values: Values; missing: string[]; errors?: FormErrors; saved?: boolean }) {
  const complete = missing.length === 0;
  const field = (name: string, props: { hint?: string; multiline?: boolean; required?: boolean; maxlength?: number; rows?: number } = {}) => (
    <Field name={name} label={`${LABELS[name]}${props.required ? '' : ' (optional)'}`} value={values[name]} errors={errors} {...props} />
  );
  return (
    <>
      {saved ? (
        <Notice>{complete ? 'Saved. Your sales profile is complete: commands run now.' : `Saved. Still needed before commands run: ${missing.map((name) => LABELS[name] ?? name).join(', ')}.`}</Notice>
      ) : null}
      <p>
        Recon relates research and audits to what you sell and to whom. Commands answer 428 until the company name, domain, what you sell and
        one entry in each customer list are filled in. The API reads and writes the same profile (<code>GET</code>/<code>PUT /api/v1/profile</code>).
      </p>
      <ErrorSummary errors={errors} />
      <form method="post" action="/dashboard/onboarding" novalidate>
        {field('companyName', { required: true, maxlength: 200 })}
        {field('domain', { required: true, hint: 'e.g. acme.com', maxlength: 253 })}
        {field('offering', { required: true, multiline: true, hint: 'A sentence or two, at most 2000 characters.', maxlength: 2000 })}
        <fieldset>
          <legend>Ideal customer profile</legend>
          {field('icp.industries', { required: true, multiline: true, hint: `${LIST_HINT} e.g. SaaS` })}
          {field('icp.companySizes', { required: true, multiline: true, hint: `${LIST_HINT} e.g. 51-200` })}
          {field('icp.regions', { required: true, multiline: true, hint: `${LIST_HINT} e.g. North America` })}
          {field('icp.personas', { required: true, multiline: true, hint: `${LIST_HINT} e.g. VP Sales` })}
        </fieldset>
        {field('competitors', { multiline: true, hint: `${LIST_HINT} Their domains, e.g. globex.com (at most 25).` })}
        {field('valueProps', { multiline: true, hint: `${LIST_HINT} e.g. Dashboards in minutes` })}
        <button type="submit">Save sales profile</button>
      </form>
    </>
  );
}

const TITLE = 'Sales profile';

onboarding.get('/', async (c) => {
  const view = await getProfile(c.var.core);
  return c.render(<ProfileForm values={valuesOf(view)} missing={view.missing} saved={c.req.query('saved') === '1'} />, { title: TITLE });
});

onboarding.post('/', async (c) => {
  const form = await readForm(c);
  try {
    await putProfile(c.var.core, parseInput(SalesProfileInput, profileInput(form)));
    return c.redirect('/dashboard/onboarding?saved=1', 303);
  } catch (error) {
    const errors = refused(c, error, { fields: FIELDS });
    const values = Object.fromEntries(FIELDS.map((name) => [name, text(form, name)]));
    return c.render(<ProfileForm values={values} missing={[]} errors={errors} />, { title: TITLE });
  }
});
