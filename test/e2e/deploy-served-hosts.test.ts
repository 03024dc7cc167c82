/**
 * What `npm run deploy` writes as the hosts a deployment is served on (DEPLOYED_HOSTS) and the MCP
 * allow-lists it deploys with, from wrangler.toml alone (scripts/lib/deploy-config.ts). How the
 * Worker answers on them is test/mcp/deployed-hosts.test.ts.
 */
import type { Unstable_RawConfig } from 'wrangler';
import { describe, expect, it } from 'vitest';
import { deploymentMcpHosts, deployVars, readProjectConfig, servedHosts, unservedTargets } from '../../scripts/lib/deploy-config.ts';

const config = (fields: Partial<Unstable_RawConfig>): Unstable_RawConfig => ({ name: 'recon', ...fields }) as Unstable_RawConfig;

describe('the hosts a deployment is served on', () => {
  it('is the Worker\'s workers.dev name on any account subdomain when wrangler.toml names no route', () => {
    expect(servedHosts(config({}))).toEqual(['recon.*.workers.dev']);
    expect(servedHosts(readProjectConfig().raw)).toEqual(['recon.*.workers.dev']);
  });

  it('adds routes and custom domains, and drops workers.dev as wrangler does once there are routes', () => {
    const routes = [
      'api.example.com/*',
      { pattern: 'https://recon.example.com/api/*', zone_name: 'example.com' },
      { pattern: 'mcp.example.org', custom_domain: true },
    ];
    expect(servedHosts(config({ routes }))).toEqual(['api.example.com', 'recon.example.com', 'mcp.example.org']);
    expect(servedHosts(config({ routes, workers_dev: true }))).toContain('recon.*.workers.dev');
    expect(servedHosts(config({ route: 'one.example.com/*' }))).toEqual(['one.example.com']);
    expect(servedHosts(config({ workers_dev: false }))).toEqual([]);
  });

  it('reads a wildcard route host as the names it can carry, and reports one it cannot name', () => {
    expect(servedHosts(config({ routes: ['*.example.com/*', '*example.net/*'] }))).toEqual(['*.example.com', 'example.net', '*.example.net']);
    const hosts = deploymentMcpHosts(config({ routes: ['shop*.example.com/*', 'api.example.com/*'] }));
    expect(hosts.served).toEqual(['api.example.com']);
    expect(hosts.skipped).toEqual(['shop*.example.com']);
  });
});

describe('the vars a deployment runs with', () => {
  it('carry DEPLOYED_HOSTS and drop the loopback entries of the allow-lists, and MCP_ALLOWED_HOSTS when nothing is left', () => {
    const vars = deployVars(readProjectConfig().raw);
    expect(vars).toMatchObject({ DEPLOYED_HOSTS: 'recon.*.workers.dev', MCP_ALLOWED_ORIGINS: '', RESEARCH_PROVIDER: 'embedded' });
    expect(vars).not.toHaveProperty('MCP_ALLOWED_HOSTS');
  });

  it('keep non-loopback MCP_ALLOWED_HOSTS to narrow, and say which of them the deployment is not served on', () => {
    const raw = config({
      routes: [{ pattern: 'recon.example.com', custom_domain: true }],
      workers_dev: true,
      vars: { MCP_ALLOWED_HOSTS: 'localhost,127.0.0.1,recon.example.com,old.example.com', MCP_ALLOWED_ORIGINS: 'http://localhost,https://app.example.com' },
    });
    expect(deployVars(raw)).toEqual({
      MCP_ALLOWED_HOSTS: 'recon.example.com,old.example.com',
      MCP_ALLOWED_ORIGINS: 'https://app.example.com',
      DEPLOYED_HOSTS: 'recon.example.com,recon.*.workers.dev',
    });
    expect(deploymentMcpHosts(raw).notServed).toEqual(['old.example.com']);
  });

  it('name every host wrangler reports deploying to', () => {
    const served = servedHosts(config({ routes: ['api.example.com/*'], workers_dev: true }));
    expect(unservedTargets(['https://recon.acme.workers.dev', 'api.example.com/* (zone name: example.com)'], served)).toEqual([]);
    expect(unservedTargets(['https://recon.acme.workers.dev', 'dash.example.com (custom domain)'], served)).toEqual(['dash.example.com']);
  });
});
