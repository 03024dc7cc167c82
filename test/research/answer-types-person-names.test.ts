import { describe, expect, it } from 'vitest';
import { sentenceAnswerTypes } from '../../src/research/answer-types.ts';

const person = (sentence: string) => sentenceAnswerTypes(sentence, ['person']).length > 0;

describe('a person named in a sentence', () => {
  it('is a first and last name beside a role or a verb of speaking or leading', () => {
    expect(person('Rostrella started in 2016 when Gethin Pryce, then a pub manager, built a rota app.')).toBe(true);
    expect(person('Leland Pryor joined as chief financial officer in August 2024.')).toBe(true);
    expect(person('"Labor is the line they can manage," said Tessa Marlowe, co-founder of Shiftlark.')).toBe(true);
  });

  it('is not the name of a firm or a fund that led a round', () => {
    expect(person("Rostrella's earlier £6 million Series A in 2021 was led by Fellgate Ventures.")).toBe(false);
    expect(person('Phishwarden has raised $85 million led by Granite Arch Partners, valuing it at $1.1 billion.')).toBe(false);
    expect(person('The round was led by Harborlight Capital, with Oakhollow Partners joining.')).toBe(false);
  });

  it('is not the title of a job', () => {
    expect(person('We are also hiring a Customer Success Manager for enterprise accounts at $95,000.')).toBe(false);
    expect(person('Initech is hiring a Senior Account Executive to lead sales in Toronto.')).toBe(false);
  });

  it('is found beside a firm in the same sentence', () => {
    expect(person('Owen Gallagher, partner at Graniteview Partners, joins the board.')).toBe(true);
  });
});
