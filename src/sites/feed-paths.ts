// No imports: scripts (the bench) read these paths too, outside the Workers runtime.

/**
 * Paths where sites commonly keep feeds, by general web convention, most common first, for a read
 * to try when a site's pages name none (`<link rel="alternate" type="application/rss+xml">`
 * should be preferred): WordPress `/feed` (and `/blog/feed` for a blog under a path), Ghost
 * `/rss/`, Jekyll `/feed.xml`, Hugo `/index.xml`, Hexo and Octopress `/atom.xml`, hand-made
 * `/rss.xml`, JSON Feed `/feed.json`, and the changelog and release feeds of product sites.
 * Example: `new URL(FEED_PATHS[0], 'https://acme.test/').href` is `https://acme.test/feed`.
 */
export const FEED_PATHS: readonly string[] = [
  '/feed',
  '/rss.xml',
  '/feed.xml',
  '/atom.xml',
  '/index.xml',
  '/rss',
  '/feed.json',
  '/blog/feed',
  '/blog/rss.xml',
  '/blog/feed.xml',
  '/blog/atom.xml',
  '/blog/index.xml',
  '/blog/rss',
  '/news/feed',
  '/news/rss.xml',
  '/changelog/rss.xml',
  '/changelog.xml',
  '/releases.atom',
];
