/**
 * The bench's ceiling: a bare one-route Worker (no framework, no bindings). Every Recon scenario is
 * reported as a ratio to this Worker's req/s, measured in the same run on the same workerd.
 */
export default {
  fetch(request) {
    if (new URL(request.url).pathname === '/healthz') {
      return new Response('{"status":"ok"}', { headers: { 'Content-Type': 'application/json' } });
    }
    return new Response('Not found', { status: 404 });
  },
};
