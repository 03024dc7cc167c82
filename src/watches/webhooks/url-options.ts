import { readConfig } from '../../ground/config.ts';
import type { WebhookUrlOptions } from './url-policy.ts';

/**
 * The webhook URL policy of this deployment: local http only where the WEBHOOK_ALLOW_LOCAL_HTTP var
 * is "true" (`npm run dev`, the Workers test pool); absent from wrangler.toml, so production is strict.
 * Apart from url-policy.ts so the policy itself stays free of the Worker's configuration.
 */
export function webhookUrlOptions(env: Env): WebhookUrlOptions {
  return { allowLocalHttp: readConfig(env).WEBHOOK_ALLOW_LOCAL_HTTP };
}
