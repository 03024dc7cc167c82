import { describe, expect, it } from 'vitest';
import { sentenceAnswerTypes, topicAnswerTypes } from '../../src/research/answer-types.ts';

const holdsChange = (sentence: string) => sentenceAnswerTypes(sentence, ['change']).length === 1;

describe('a change as a kind of answer', () => {
  it('is what a topic asks for when it asks for results, savings or an impact', () => {
    expect(topicAnswerTypes('Carrow & Pike results with Initech')).toContain('change');
    expect(topicAnswerTypes('Bluegill payroll time savings with Initech')).toContain('change');
    expect(topicAnswerTypes('impact of Initech on turnover')).toContain('change');
    expect(topicAnswerTypes('Initech pricing')).not.toContain('change');
    expect(topicAnswerTypes('who runs Initech')).not.toContain('change');
  });

  it('is held by a figure going from one value to another', () => {
    expect(holdsChange('In six months, the click rate on simulated phishing fell from 24 percent to 4 percent.')).toBe(true);
    expect(holdsChange('Payroll processing time fell from 11 hours to 3 hours per pay period.')).toBe(true);
    expect(holdsChange("Managers now spend 3 hours a week on schedules, down from 7.")).toBe(true);
  });

  it('is held by a verb of rising or falling with its figure', () => {
    expect(holdsChange('Crew turnover fell 18 percent in the first year.')).toBe(true);
    expect(holdsChange('Beaconly grew its customer base by 60 percent in 2024.')).toBe(true);
    expect(holdsChange("At renewal the firm's insurance premium went down 12 percent.")).toBe(true);
    expect(holdsChange('Customers saw 2.3 times as many reported phishing emails.')).toBe(true);
    expect(holdsChange("Tip reporting errors fell to zero in the first two quarters.")).toBe(true);
  });

  it('is not held by a figure that stays put, or by a price list running from one plan to another', () => {
    expect(holdsChange('Initech has 420 employees in Austin and Denver.')).toBe(false);
    expect(holdsChange('Pricing runs from $49 per seat per month on the Team plan to $99 on the Professional plan.')).toBe(false);
    expect(holdsChange('The migration took seven weeks, including a parallel payroll run.')).toBe(false);
  });
});

describe('a count', () => {
  it('needs a plural noun after its figure, not a word that only ends in s', () => {
    const holdsCount = (sentence: string) => sentenceAnswerTypes(sentence, ['count']).length === 1;
    expect(holdsCount('Carrow & Pike started on Initech in June 2025 and sent its first campaign the same afternoon.')).toBe(false);
    expect(holdsCount('The round in 2021 was led by Fellgate Ventures.')).toBe(false);
    expect(holdsCount('Initech operates 41 restaurants in Texas.')).toBe(true);
    expect(holdsCount('More than 7,800 organizations use Initech.')).toBe(true);
  });
});
