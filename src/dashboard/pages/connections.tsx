/** @jsxImportSource hono/jsx */
import { Hono, type Context } from 'hono';
import { listConnections, revokeConnection, type Connection } from '../../oauth/connections.ts';
import { oauthOrigin } from '../../routes/oauth.ts';
import { Notice, Table, when, type Column } from '../components.tsx';
import type { SignedInEnv } from '../env.ts';
import { readForm } from '../form.ts';

/**
 * Connected MCP clients (/dashboard/settings/connections): the OAuth grants the signed-in person
 * consented to (src/oauth/connections.ts), each with its organization and scopes, and a button
 * that revokes it at once.
 */
export const connections = new Hono<SignedInEnv>();

export const CONNECTIONS_PATH = '/dashboard/settings/connections';
const TITLE = 'Connected MCP clients';

const CONNECTION_COLUMNS: Column<Connection>[] = [
  { header: 'Client', cell: (connection) => connection.clientName },
  { header: 'Organization', cell: (connection) => (connection.organization ? connection.organization.name : 'no longer a member (refused)') },
  { header: 'Scopes', cell: (connection) => connection.scopes.join(', ') },
  { header: 'Connected', cell: (connection) => when(connection.createdAt) },
  { header: 'Expires', cell: (connection) => when(connection.expiresAt) },
  {
    header: <span class="muted">Actions</span>,
    cell: (connection) => (
      <form method="post" action={`${CONNECTIONS_PATH}/${connection.id}/revoke`}>
        <button type="submit" class="danger" aria-label={`Revoke ${connection.clientName}`}>
          Revoke
        </button>
      </form>
    ),
  },
];

function ConnectionsPage({ list, origin, notice }: { list: Connection[]; origin: string; notice?: string }) {
  return (
    <>
      {notice ? <Notice>{notice}</Notice> : null}
      <p>
        MCP clients that cannot send an API key (Claude, ChatGPT and other hosted connectors) connect to <code>{`${origin}/api/mcp`}</code> with OAuth: you
        sign in, pick an organization and what the client may do. Revoking a client stops it at once; it has to ask you again.
      </p>
      <Table rows={list} columns={CONNECTION_COLUMNS} caption="Clients you connected, newest first." empty={<p>You have not connected any MCP client.</p>} />
    </>
  );
}

function unavailable(c: Context<SignedInEnv>) {
  c.status(403);
  return c.render(<p>OAuth is not served on this host, so there are no connected clients to show here.</p>, { title: TITLE });
}

connections.get('/', async (c) => {
  const origin = oauthOrigin(c);
  if (!origin) return unavailable(c);
  const list = await listConnections(c.env, c.var.db, origin, c.var.session.user.id);
  return c.render(<ConnectionsPage list={list} origin={origin} />, { title: TITLE });
});

connections.post('/:id/revoke', async (c) => {
  const origin = oauthOrigin(c);
  if (!origin) return unavailable(c);
  await readForm(c);
  const userId = c.var.session.user.id;
  await revokeConnection(c.env, c.var.db, origin, userId, c.req.param('id'));
  const list = await listConnections(c.env, c.var.db, origin, userId);
  return c.render(<ConnectionsPage list={list} origin={origin} notice="The client was disconnected: its tokens no longer work." />, { title: TITLE });
});
