/** The quoted statements of a research brief, for tests: each sentence with the source numbers it cites. */
export interface Claim {
  sentence: string;
  cites: number[];
}

const MARKS = String.raw`((?:\[\d+\])+)`;
const PATTERNS = [
  // **Answer:** "sentence" [1][2] (domain, date; ...)
  new RegExp(String.raw`^\*\*Answer:\*\* "(.+)" ${MARKS} \(`, 'gm'),
  // 1. sentence [1] (domain, date)
  new RegExp(String.raw`^\d+\. (?!Different figures)(.+) ${MARKS} \([^()]*\)$`, 'gm'),
  //    - "sentence" [1] (domain, date), under "Where sources differ"
  new RegExp(String.raw`^   - "(.+)" ${MARKS} \([^()]*\)$`, 'gm'),
];

export function briefClaims(markdown: string): Claim[] {
  const body = markdown.slice(0, markdown.indexOf('## Sources'));
  return PATTERNS.flatMap((pattern) =>
    [...body.matchAll(pattern)].map((m) => ({ sentence: m[1]!, cites: [...m[2]!.matchAll(/\d+/g)].map((n) => Number(n[0])) })),
  );
}

/** The numbered source lines `[n] Title, domain, date, URL`: URL by number. */
export function briefSources(markdown: string): { n: number; url: string }[] {
  return [...markdown.matchAll(/^\[(\d+)\] .*, (https?:\/\/\S+)$/gm)].map((m) => ({ n: Number(m[1]), url: m[2]! }));
}
