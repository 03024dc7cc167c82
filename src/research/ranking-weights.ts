import type { Ranking } from './ranking.ts';

/**
 * The research ranking's weights (ranking.ts), fitted by `npm run score:research && npm run fit:research`
 * (scripts/fit-research.ts) on the corpora demo, held-out, restaurant-workforce, security-awareness: coordinate ascent
 * from PRIOR_RANKING, objective 1.1451 -> 1.1825 (scripts/lib/ranking-fit.ts).
 * Written by the script; do not edit by hand.
 */
export const FITTED_RANKING: Ranking = {
  selection: {
    passage: 0.25,
    coverage: 0.45,
    titleCoverage: 0.2,
    contextCoverage: 0.2,
    phrase: 0,
    answerType: 0.25,
    informativeness: 0.1,
    position: 0,
    recency: 0,
    cue: 0,
    product: 0,
    moneyScale: 0,
    currency: 0,
    noNames: 0,
    opensWithAsked: 0,
    namesAskedOnItsPage: 0,
    onAskedPage: 0,
    namesAskedInPassing: -0.16251892949777494,
    opensWithOtherAsked: -0.16251892949777494,
    missesAsked: -0.6931471805599453,
    opensWithForeign: -0.35667494393873245,
    opensWithForeignBeside: -0.10536051565782628,
    earlier: -0.2,
    addOn: 0,
    otherRole: -0.05,
  },
  answer: {
    passage: 0.1,
    coverage: 0.4,
    titleCoverage: 0.2,
    contextCoverage: 0.35,
    phrase: 0,
    answerType: 0.25,
    informativeness: 0,
    position: 0,
    recency: 0,
    cue: 0,
    product: 0.05,
    moneyScale: 0.1,
    currency: 0.05,
    noNames: 0,
    opensWithAsked: 0,
    namesAskedOnItsPage: 0,
    onAskedPage: 0,
    namesAskedInPassing: -0.16251892949777494,
    opensWithOtherAsked: -0.16251892949777494,
    missesAsked: -0.6931471805599453,
    opensWithForeign: -0.35667494393873245,
    opensWithForeignBeside: -0.10536051565782628,
    earlier: 0,
    addOn: 0,
    otherRole: 0,
  },
};
