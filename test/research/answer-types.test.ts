import { describe, expect, it } from 'vitest';
import { answerTypeMatch, figures, sentenceAnswerTypes, topicAnswerTypes } from '../../src/research/answer-types.ts';

describe('answer types a topic asks for', () => {
  it('reads the cue words of each type', () => {
    expect(topicAnswerTypes('what does Initech charge for its Pro plan')).toEqual(['money']);
    expect(topicAnswerTypes('Initech engineer salary')).toEqual(['money']);
    expect(topicAnswerTypes('when was Initech founded')).toEqual(['date']);
    expect(topicAnswerTypes('how long does onboarding take')).toEqual(['duration']);
    expect(topicAnswerTypes('how many integrations does Initech have')).toEqual(['count']);
    expect(topicAnswerTypes('Initech headcount')).toEqual(['headcount']);
    expect(topicAnswerTypes('how many people work at Initech')).toEqual(['count', 'headcount']);
    expect(topicAnswerTypes('Initech customer ratings')).toEqual(expect.arrayContaining(['rating']));
    expect(topicAnswerTypes('what share of tickets are automated')).toEqual(['percent']);
    expect(topicAnswerTypes('Initech drawbacks')).toEqual(['weakness']);
    expect(topicAnswerTypes('what do users dislike about Initech')).toEqual(['weakness']);
    expect(topicAnswerTypes('Initech staff turnover after the switch')).toContain('percent');
  });

  it('reads who, a C-level title or a role as asking for a person, and finds one named beside a role', () => {
    expect(topicAnswerTypes("who is Initech's CFO")).toEqual(['person']);
    expect(topicAnswerTypes('Initech founders')).toEqual(['person']);
    // "who founded" asks for a person, though "founded" alone asks for a date; "who ... and when" asks for both.
    expect(topicAnswerTypes('who founded Initech')).toEqual(['person']);
    expect(topicAnswerTypes('who founded Initech and when')).toEqual(['date', 'person']);
    // A role asks for a person only when nothing else is asked: here the pay of the role.
    expect(topicAnswerTypes('Initech account executive salary')).toEqual(['money']);
    expect(sentenceAnswerTypes('Priya Lindqvist, who runs our finance team, joined in 2024.', ['person'])).toEqual(['person']);
    expect(sentenceAnswerTypes('"Our GMs are back on the floor," said Teresa Vukovic, vice president of operations.', ['person'])).toEqual(['person']);
    // A company's two-word name is no person without a role beside it; a role without a name neither.
    expect(sentenceAnswerTypes('Peakline Foods operates 41 Crispy Hen restaurants in Texas.', ['person'])).toEqual([]);
    expect(sentenceAnswerTypes('our chief executive joined in 2024.', ['person'])).toEqual([]);
  });

  it('reads a noun such as "customers" as asking for a count only when nothing else is asked', () => {
    expect(topicAnswerTypes('Initech customers')).toEqual(['count']);
    expect(topicAnswerTypes('Initech weaknesses according to customers')).toEqual(['weakness']);
    expect(topicAnswerTypes('Initech price for 20 users')).toEqual(['money']);
  });

  it('asks for nothing when the topic has no cue', () => {
    expect(topicAnswerTypes('Initech')).toEqual([]);
    expect(topicAnswerTypes('Initech partners in Brazil')).toEqual([]);
  });

  it('does not read a cue inside another word', () => {
    expect(topicAnswerTypes('Initech appliance integrations')).toEqual([]); // "app-liance", not "pay" or "lia"
    expect(topicAnswerTypes('Initech repayment terms')).not.toContain('money');
  });
});

describe('answer types a sentence holds', () => {
  it('recognises money in signs, codes, currency words and stated absences of cost', () => {
    for (const sentence of [
      'Annual contracts start at $60,000.',
      'The base salary is 150,000 to 190,000 Singapore dollars.',
      'Pay is 52,000 to 61,000 euros a year.',
      'It is included at no extra cost.',
      'There are no event or data volume fees.',
      'Plans start at EUR 40 a month.',
    ]) {
      expect(sentenceAnswerTypes(sentence), sentence).toContain('money');
    }
    expect(sentenceAnswerTypes('The team grew to 40 engineers.')).not.toContain('money');
  });

  it('recognises a price stated against another as money ("costs 20 percent more"), not any share that grew', () => {
    expect(sentenceAnswerTypes('Prices are billed annually, and monthly billing costs 20 percent more.')).toContain('money');
    expect(sentenceAnswerTypes('Annual billing is 15% cheaper.')).toContain('money');
    expect(sentenceAnswerTypes('Revenue grew 20 percent more than last year.')).not.toContain('money');
    expect(sentenceAnswerTypes('Reported phishing rose 20 percent.')).not.toContain('money');
  });

  it('recognises dates, durations, counts, percents, ratings and weaknesses', () => {
    expect(sentenceAnswerTypes('It became available on 3 March 2025.')).toContain('date');
    expect(sentenceAnswerTypes('The change takes effect on February 1, 2026.')).toContain('date');
    expect(sentenceAnswerTypes('It was started in 2014 by two engineers.')).toContain('date');
    expect(sentenceAnswerTypes('The rollout finished in about five weeks.')).toContain('duration');
    expect(sentenceAnswerTypes('Each logger runs for up to three years on one battery.')).toContain('duration');
    expect(sentenceAnswerTypes('It employs about 280 people.')).toEqual(expect.arrayContaining(['count', 'headcount']));
    expect(sentenceAnswerTypes('It routes events to more than 300 destinations.')).not.toContain('headcount');
    expect(sentenceAnswerTypes('Waste fell by 23 percent.')).toContain('percent');
    expect(sentenceAnswerTypes('Customers drafted about a third of their reports with it.')).toContain('percent');
    expect(sentenceAnswerTypes('The reviewer rated it 3 out of 5.')).toContain('rating');
    expect(sentenceAnswerTypes('Its main weakness is a dated interface.')).toContain('weakness');
    expect(sentenceAnswerTypes('Dashboards only refresh slowly, which frustrates dispatchers.')).toContain('weakness');
  });

  it('finds no type in a sentence without one', () => {
    expect(sentenceAnswerTypes('Initech builds software for warehouses.')).toEqual([]);
  });
});

describe('answerTypeMatch', () => {
  it('is 0 without a wanted type held, most of the way for one, 1 for all', () => {
    expect(answerTypeMatch([], ['money'])).toBe(0);
    expect(answerTypeMatch(['money'], ['date'])).toBe(0);
    expect(answerTypeMatch(['money'], ['money'])).toBe(1);
    expect(answerTypeMatch(['money', 'duration'], ['money'])).toBeCloseTo(0.85);
    expect(answerTypeMatch(['money', 'duration'], ['money', 'duration'])).toBe(1);
  });
});

describe('figures', () => {
  it('keeps each figure as one token with its sign and unit, so different prices differ', () => {
    expect(figures('The Team plan costs $49 per seat; Pro is $99.')).toEqual(['#$49', '#$99']);
    expect(figures('About 280 people, up 40 percent.')).toEqual(['#280people', '#40percent']);
    expect(figures('No figure here.')).toEqual([]);
  });
});

describe('answer types of topics that look like another kind', () => {
  it('reads a click, completion or churn rate as a percentage, and a rating as a rating', () => {
    expect(topicAnswerTypes('Ostrander Logistics phishing click rate')).toEqual(['percent']);
    expect(topicAnswerTypes('school district training completion rate')).toEqual(['percent']);
    expect(topicAnswerTypes('how do reviewers rate Globex')).toEqual(['rating']);
    expect(topicAnswerTypes('Globex rating on review sites')).toEqual(['rating']);
  });

  it('does not read a count into a hyphenated word ("mid-size")', () => {
    expect(topicAnswerTypes('top training picks for mid-size companies')).toEqual([]);
    expect(topicAnswerTypes('company size of Initech')).toEqual(['count']);
  });

  it('reads "who has more" as a comparison of companies, and "who runs" as a person', () => {
    expect(topicAnswerTypes('who has more customers, Phishwarden or Cortilane')).toEqual(['count']);
    expect(topicAnswerTypes('who is cheaper, Baitwise or Phishwarden')).toEqual(['money']);
    expect(topicAnswerTypes('who runs Gratuvo')).toEqual(['person']);
    expect(topicAnswerTypes('who is the manager of Initech sales')).toEqual(['person']);
  });
});
