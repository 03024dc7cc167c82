/**
 * Where an organization's runs and watches should live: a Durable Object location hint from the
 * regions its sales profile names (icp.regions, free text such as "North America"). The platform
 * takes a hint only when an object is first created, as a preference, and never moves the object
 * afterwards (docs/deploy.md#placement).
 */

/**
 * Region names in general English, as a person writes them once normalized (`normalized`), to the
 * hint of the place most of that region's business is in: "North America" and "EMEA" are mostly
 * east of the Rockies and west of Vienna. Countries only where a profile commonly names one alone.
 */
const HINTS: Readonly<Record<string, DurableObjectLocationHint>> = {
  ...of('wnam', ['west coast', 'us west', 'western us', 'western north america', 'pacific northwest', 'california']),
  ...of('enam', [
    'north america', 'na', 'nam', 'noram', 'amer', 'americas', 'us', 'usa', 'united states',
    'united states of america', 'canada', 'east coast', 'us east', 'eastern us', 'eastern north america',
  ]),
  ...of('sam', ['south america', 'latin america', 'latam', 'lac', 'central america', 'brazil']),
  ...of('weur', [
    'europe', 'eu', 'emea', 'western europe', 'uk', 'united kingdom', 'great britain', 'britain',
    'ireland', 'dach', 'nordics', 'scandinavia', 'benelux', 'france', 'germany', 'spain', 'italy',
  ]),
  ...of('eeur', ['eastern europe', 'central and eastern europe', 'cee', 'baltics', 'balkans', 'poland']),
  ...of('apac', [
    'apac', 'apj', 'asia', 'asia pacific', 'east asia', 'southeast asia', 'south asia', 'india',
    'japan', 'china', 'korea', 'south korea', 'singapore',
  ]),
  ...of('oc', ['oceania', 'australia', 'new zealand', 'anz', 'australasia']),
  ...of('afr', ['africa', 'sub saharan africa', 'south africa']),
  ...of('me', ['middle east', 'mena', 'gcc', 'gulf']),
};

function of(hint: DurableObjectLocationHint, names: readonly string[]): Record<string, DurableObjectLocationHint> {
  return Object.fromEntries(names.map((name) => [name, hint]));
}

/** Lower case, `&` as "and", dots dropped ("U.S."), other punctuation a space, no leading "the". */
function normalized(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('&', ' and ')
    .replaceAll('.', '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .replace(/^the /, '');
}

/** The hint of one entry: the whole of it, else its first part that maps ("US & Canada", "Europe/Middle East"). */
function hintOfEntry(entry: string): DurableObjectLocationHint | undefined {
  const whole = HINTS[normalized(entry)];
  if (whole) return whole;
  for (const part of entry.split(/[,/+;|&]| and /i)) {
    const hint = HINTS[normalized(part)];
    if (hint) return hint;
  }
  return undefined;
}

/**
 * The hint of the first region that maps (the one a profile names first is taken as its main
 * market), or undefined when none does ("Global", "Worldwide", a city).
 */
export function locationHintOf(regions: readonly string[]): DurableObjectLocationHint | undefined {
  for (const region of regions) {
    const hint = hintOfEntry(region);
    if (hint) return hint;
  }
  return undefined;
}

/** The options of a Durable Object `get` that creates an organization's object: its hint, if any. */
export function placementOf(regions: readonly string[]): DurableObjectNamespaceGetDurableObjectOptions {
  const locationHint = locationHintOf(regions);
  return locationHint ? { locationHint } : {};
}
