/** The URIs of Recon's MCP resources (src/mcp/resources.ts), for the tool results that link to them. */
export const briefUri = (key: string) => `recon://briefs/${encodeURIComponent(key)}`;
export const runUri = (kind: string, id: string) => `recon://runs/${encodeURIComponent(kind)}/${encodeURIComponent(id)}`;
