import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../src/ground/config.ts';
import { isAllowedHost, isAllowedOrigin, mcpHosts } from '../../src/mcp/dns-rebinding.ts';

function configWith(vars: Partial<Record<'MCP_ALLOWED_HOSTS' | 'MCP_ALLOWED_ORIGINS' | 'DEPLOYED_HOSTS', string>>) {
  return readConfig({ ...env, ...vars });
}

describe('MCP_ALLOWED_HOSTS and MCP_ALLOWED_ORIGINS', () => {
  it('match a host name on any port unless the entry names one', () => {
    const hosts = mcpHosts(configWith({ MCP_ALLOWED_HOSTS: 'recon.example.com, localhost:8787,[::1]' }));
    expect(isAllowedHost('recon.example.com', hosts, 'https:')).toBe(true);
    expect(isAllowedHost('Recon.Example.com:8443', hosts, 'https:')).toBe(true);
    expect(isAllowedHost('localhost:8787', hosts, 'http:')).toBe(true);
    expect(isAllowedHost('localhost:8788', hosts, 'http:')).toBe(false);
    expect(isAllowedHost('localhost', hosts, 'http:')).toBe(false);
    expect(isAllowedHost('[::1]:1234', hosts, 'http:')).toBe(true);
    for (const host of ['evil.example', 'recon.example.com.evil.example', 'evilrecon.example.com', '', 'recon.example.com:80@evil', '127.0.0.1']) {
      expect(isAllowedHost(host, hosts, 'https:'), host).toBe(false);
    }
  });

  it('compare an entry port with the default port of the scheme when the header has none', () => {
    const config = configWith({
      MCP_ALLOWED_HOSTS: 'recon.example.com:443',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com:443,http://localhost:3000',
    });
    const [hosts, origins] = [mcpHosts(config), config.MCP_ALLOWED_ORIGINS];
    expect(isAllowedHost('recon.example.com', hosts, 'https:')).toBe(true);
    expect(isAllowedHost('recon.example.com', hosts, 'http:')).toBe(false);
    expect(isAllowedOrigin('https://app.example.com', origins)).toBe(true);
    expect(isAllowedOrigin('http://app.example.com', origins)).toBe(false);
    expect(isAllowedOrigin('http://localhost:3000', origins)).toBe(true);
    expect(isAllowedOrigin('http://localhost:3001', origins)).toBe(false);
  });

  it('never allow an opaque or malformed Origin', () => {
    const { MCP_ALLOWED_ORIGINS: origins } = configWith({ MCP_ALLOWED_ORIGINS: 'https://app.example.com' });
    for (const origin of ['null', '', 'app.example.com', 'https://app.example.com/', 'file://', 'https://app.example.com.evil.example']) {
      expect(isAllowedOrigin(origin, origins), origin).toBe(false);
    }
  });

  it('on a deployment, match a `*` label of a served host with exactly one label', () => {
    const hosts = mcpHosts(configWith({ DEPLOYED_HOSTS: 'recon.*.workers.dev', MCP_ALLOWED_HOSTS: undefined }));
    expect(isAllowedHost('recon.acme.workers.dev', hosts, 'https:')).toBe(true);
    for (const host of ['recon.workers.dev', 'recon.a.b.workers.dev', 'other.acme.workers.dev', 'recon.acme.workers.dev.evil.example']) {
      expect(isAllowedHost(host, hosts, 'https:'), host).toBe(false);
    }
  });

  it('default to the local development hosts', () => {
    const config = readConfig({
      ...env,
      MCP_ALLOWED_HOSTS: undefined as unknown as string,
      MCP_ALLOWED_ORIGINS: undefined as unknown as string,
    });
    const [hosts, origins] = [mcpHosts(config), config.MCP_ALLOWED_ORIGINS];
    expect(hosts).toEqual([{ hostname: 'localhost' }, { hostname: '127.0.0.1' }, { hostname: '[::1]' }]);
    expect(origins.map((o) => `${o.scheme}://${o.hostname}`)).toEqual(['http://localhost', 'http://127.0.0.1', 'http://[::1]']);
  });

  it.each([
    [{ MCP_ALLOWED_HOSTS: '' }, /MCP_ALLOWED_HOSTS: list at least one host name/],
    [{ MCP_ALLOWED_HOSTS: 'https://recon.example.com' }, /MCP_ALLOWED_HOSTS: "https:\/\/recon.example.com" is not a host name/],
    [{ MCP_ALLOWED_HOSTS: '*' }, /MCP_ALLOWED_HOSTS: "\*" is not a host name/],
    [{ MCP_ALLOWED_ORIGINS: 'app.example.com' }, /MCP_ALLOWED_ORIGINS: "app.example.com" is not an origin/],
    [{ MCP_ALLOWED_ORIGINS: '*' }, /MCP_ALLOWED_ORIGINS: "\*" is not an origin/],
    [{ DEPLOYED_HOSTS: '*' }, /DEPLOYED_HOSTS: "\*" is not a host name/],
    [{ DEPLOYED_HOSTS: 'recon.*.workers.dev,*.dev' }, /DEPLOYED_HOSTS: "\*.dev" is not a host name/],
    [{ DEPLOYED_HOSTS: 'recon.example.com:443' }, /DEPLOYED_HOSTS: "recon.example.com:443" is not a host name/],
    [{ DEPLOYED_HOSTS: 'rec*n.example.com' }, /DEPLOYED_HOSTS: "rec\*n.example.com" is not a host name/],
  ])('fail fast on %o, naming the variable', (vars, message) => {
    expect(() => configWith(vars)).toThrow(message);
  });
});
