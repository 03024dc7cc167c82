import { ProtocolErrorCode, type GetPromptResult, type Prompt } from '@modelcontextprotocol/server';
import { McpError } from './json-rpc-error.ts';

/**
 * The prompts a person picks in their MCP client for the everyday jobs (prompts/list, prompts/get):
 * each is a message that tells the model which of Recon's tools to call, in what order, for one
 * argument or none. They call tools only; what a prompt may do is what the key's scopes allow.
 */

interface PromptDefinition extends Prompt {
  messages(args: Record<string, string>): string;
}

/** The longest value an argument may have. */
export const MAX_PROMPT_ARGUMENT_CHARS = 200;

const COMPANY = { name: 'company', description: 'The company: its domain (acme.com) or name.', required: true };

const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'account-research',
    title: 'Account research',
    description: 'A cited brief on one company, from its own site and what your knowledge base holds.',
    arguments: [COMPANY],
    messages: ({ company }) =>
      `Research the company ${company} for a sales conversation. If it is a domain and oms-search finds few sources of it, read its site first ` +
      `with read-site and poll run-status until the read completes. Then call research with a topic naming ${company} (its offering, pricing, ` +
      'customers, recent news), and answer with the brief: keep every citation, and say plainly what the sources do not say.',
  },
  {
    name: 'competitor-brief',
    title: 'Competitor brief',
    description: "A company's competitors side by side, with prices, strengths and weaknesses quoted from sources.",
    arguments: [{ ...COMPANY, required: false, description: 'The company (domain or name); your own when left out.' }],
    messages: ({ company }) =>
      `Call competitors${company ? ` with company "${company}"` : ''} and summarize the table: who competes on price, who on product, and ` +
      'where the sources disagree. Quote, do not paraphrase, every figure, with its citation.',
  },
  {
    name: 'gtm-audit',
    title: 'GTM audit of a company',
    description: 'A scored audit of a company’s go-to-market (positioning, ICP, pricing, channels, competition, content).',
    arguments: [{ ...COMPANY, required: false, description: 'The company (domain); your own when left out.' }],
    messages: ({ company }) =>
      `Start gtm-audit${company ? ` with company "${company}"` : ''}. It answers with a run id: poll run-status with that id every few ` +
      'seconds until its status is completed, then give the scorecard and the three most important fixes, each with where to make it.',
  },
  {
    name: 'weekly-watch-digest',
    title: 'Weekly watch digest',
    description: 'What your research watches found in the last seven days: the changes, cited.',
    arguments: [],
    messages: () =>
      'Call watch-list, then watch-executions for each active or failing watch. For the executions of the last seven days, list what changed: ' +
      'the claims in findings.added and findings.removed with their sources, and the properties each changed. Say which watches failed and ' +
      'which are near their cost cap. Group by company; skip watches with nothing new.',
  },
];

const BY_NAME = new Map(PROMPTS.map((prompt) => [prompt.name, prompt]));

/** prompts/list: every prompt, without its message. */
export function listPrompts(): { prompts: Prompt[] } {
  return { prompts: PROMPTS.map(({ messages: _messages, ...prompt }) => prompt) };
}

/** prompts/get: the prompt's message for these arguments; -32602 naming what is wrong otherwise. */
export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  const prompt = BY_NAME.get(name);
  if (!prompt) throw new McpError(ProtocolErrorCode.InvalidParams, `Unknown prompt '${name}'; prompts/list lists ${PROMPTS.map((p) => p.name).join(', ')}.`);
  const given = args ?? {};
  const known = new Set((prompt.arguments ?? []).map((argument) => argument.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) throw new McpError(ProtocolErrorCode.InvalidParams, `Prompt '${prompt.name}' takes no argument '${name}'${known.size ? `; it takes ${[...known].join(', ')}` : ''}.`);
  }
  const values: Record<string, string> = {};
  for (const argument of prompt.arguments ?? []) {
    const value = given[argument.name]?.trim();
    if (!value) {
      if (argument.required) throw new McpError(ProtocolErrorCode.InvalidParams, `Prompt '${prompt.name}' needs '${argument.name}': ${argument.description}`);
      continue;
    }
    if (value.length > MAX_PROMPT_ARGUMENT_CHARS) throw new McpError(ProtocolErrorCode.InvalidParams, `'${argument.name}' may be at most ${MAX_PROMPT_ARGUMENT_CHARS} characters.`);
    // One line: the value is set inside the prompt's sentence.
    values[argument.name] = value.replace(/\s+/g, ' ');
  }
  return {
    description: prompt.description,
    messages: [{ role: 'user', content: { type: 'text', text: prompt.messages(values) } }],
  };
}
