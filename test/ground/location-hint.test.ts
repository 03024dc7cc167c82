import { describe, expect, it } from 'vitest';
import { locationHintOf, placementOf } from '../../src/ground/location-hint.ts';

describe('location hints from the regions of a sales profile', () => {
  it.each([
    ['North America', 'enam'],
    ['NA', 'enam'],
    ['U.S.', 'enam'],
    ['the Americas', 'enam'],
    ['US West', 'wnam'],
    ['LATAM', 'sam'],
    ['Latin America', 'sam'],
    ['EMEA', 'weur'],
    ['EU', 'weur'],
    ['UK', 'weur'],
    ['Eastern Europe', 'eeur'],
    ['Central & Eastern Europe', 'eeur'],
    ['APAC', 'apac'],
    ['Asia-Pacific', 'apac'],
    ['ANZ', 'oc'],
    ['Australia', 'oc'],
    ['Africa', 'afr'],
    ['Middle East', 'me'],
    ['  north   AMERICA ', 'enam'],
  ])('%s -> %s', (region, hint) => {
    expect(locationHintOf([region])).toBe(hint);
  });

  it('reads an entry that names several regions by its first part that maps', () => {
    expect(locationHintOf(['US & Canada'])).toBe('enam');
    expect(locationHintOf(['Europe/Middle East'])).toBe('weur');
    expect(locationHintOf(['Global, APAC'])).toBe('apac');
  });

  it('picks the first region that maps when several are given', () => {
    expect(locationHintOf(['Europe', 'North America'])).toBe('weur');
    expect(locationHintOf(['Worldwide', 'Mars', 'APAC', 'EMEA'])).toBe('apac');
  });

  it('gives none when nothing maps, and never reads a word inside another', () => {
    for (const regions of [[], ['Global'], ['Worldwide', 'Remote'], ['N/A'], ['Nashville'], ['Eurasia'], ['Usability']]) {
      expect(locationHintOf(regions), regions.join('|')).toBeUndefined();
      expect(placementOf(regions)).toEqual({});
    }
    expect(placementOf(['Europe'])).toEqual({ locationHint: 'weur' });
  });
});
