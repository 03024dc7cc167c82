import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/ground/config.ts';
import { SITE_READER_PRODUCT_TOKEN } from '../../src/sites/robots.ts';
import { botPageUrl, httpOrigin, SITE_READER_VERSION, siteReaderUserAgent } from '../../src/sites/user-agent.ts';

function configWith(value: string | undefined) {
  return readConfig({ ...env, SITE_READ_CONTACT_URL: value } as Env);
}

describe('siteReaderUserAgent', () => {
  it('is the product token, the version and the contact URL as a comment', () => {
    expect(siteReaderUserAgent('https://recon.example.com/bot')).toBe(`ReconBot/${SITE_READER_VERSION} (+https://recon.example.com/bot)`);
  });

  it('starts with the product token robots.txt groups are matched by', () => {
    expect(siteReaderUserAgent('https://recon.example.com/bot').startsWith(`${SITE_READER_PRODUCT_TOKEN}/`)).toBe(true);
    expect(SITE_READER_PRODUCT_TOKEN).toBe('ReconBot');
  });

  it('is the product and version alone without a contact URL', () => {
    expect(siteReaderUserAgent(undefined)).toBe(`ReconBot/${SITE_READER_VERSION}`);
  });

  it('percent-encodes what would end the comment or break the header', () => {
    const agent = siteReaderUserAgent('https://x.example/a)b(c\\d e\r\nX-Evil: 1é');
    expect(agent).toBe(`ReconBot/${SITE_READER_VERSION} (+https://x.example/a%29b%28c%5Cd%20e%0D%0AX-Evil:%201%C3%A9)`);
    expect(agent).toMatch(/^[\x20-\x7e]+$/);
  });
});

describe('botPageUrl', () => {
  it('is SITE_READ_CONTACT_URL when the deployment sets one, whatever the origin', () => {
    expect(botPageUrl(configWith('https://ops.example.com/crawler'), 'https://recon.example.com')).toBe('https://ops.example.com/crawler');
  });

  it("is /bot on the origin of the request that started the read otherwise", () => {
    expect(botPageUrl(configWith(undefined), 'https://recon.example.com')).toBe('https://recon.example.com/bot');
    expect(botPageUrl(configWith(undefined), 'https://recon.example.com:8443/api/v1/oms/sites?x=1')).toBe('https://recon.example.com:8443/bot');
    expect(botPageUrl(configWith(''), 'http://localhost:8787/dashboard')).toBe('http://localhost:8787/bot');
  });

  it('is undefined with neither: no URL that would not resolve', () => {
    expect(botPageUrl(configWith(undefined))).toBeUndefined();
    expect(botPageUrl(configWith(undefined), 'not a url')).toBeUndefined();
    expect(botPageUrl(configWith(undefined), 'ftp://recon.example.com/')).toBeUndefined();
    expect(botPageUrl(configWith(undefined), 'null')).toBeUndefined();
  });
});

describe('httpOrigin', () => {
  it('drops path, query, fragment and credentials', () => {
    expect(httpOrigin('https://u:p@Recon.Example.com/a?b#c')).toBe('https://recon.example.com');
  });
});

describe('SITE_READ_CONTACT_URL', () => {
  it('is unset by default', () => {
    expect(readConfig({ ...env } as Env).SITE_READ_CONTACT_URL).toBeUndefined();
  });

  it('is kept as the URL parser writes it', () => {
    expect(configWith(' https://Ops.Example.com/crawler ').SITE_READ_CONTACT_URL).toBe('https://ops.example.com/crawler');
  });

  it.each(['recon.example.com/bot', '/bot', 'mailto:ops@example.com', 'javascript:alert(1)', 'https://user:pw@example.com/bot', `https://example.com/${'a'.repeat(2_100)}`])(
    'refuses %s at startup with a message naming the variable',
    (value) => {
      expect(() => configWith(value)).toThrow(/SITE_READ_CONTACT_URL: .* is not an absolute http\(s\) URL/);
    },
  );
});
