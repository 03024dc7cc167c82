/**
 * The part of dashboard.js (assets.ts) that keeps a running run's page up to date without a
 * reload: on a page with `<section data-run-progress="/dashboard/runs/{id}/progress">`, it polls
 * that JSON every few seconds (the run's `retryAfter`), moves the `<progress>` bar, its count and
 * the status line, and reloads the page once the run has finished, so the report shows. Without scripts the
 * page offers a reload link instead. Same-origin fetch only (the CSP's connect-src 'self').
 */
export const RUN_PROGRESS_JS = `
// A running run's page: poll its progress and reload once it has finished.
document.addEventListener('DOMContentLoaded', function () {
  var box = document.querySelector('[data-run-progress]');
  if (!box || !window.fetch) return;
  var url = box.getAttribute('data-run-progress');
  var bar = box.querySelector('progress');
  var line = box.querySelector('[data-run-line]');
  var count = box.querySelector('[data-run-count]');
  var failures = 0;
  function later(seconds) { setTimeout(poll, Math.min(Math.max(seconds || 2, 1), 30) * 1000); }
  function poll() {
    fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.json();
      })
      .then(function (run) {
        failures = 0;
        if (run.status !== 'running') { window.location.reload(); return; }
        if (bar) {
          bar.max = run.stepsTotal;
          bar.value = run.stepsDone;
          bar.textContent = run.stepsDone + ' of ' + run.stepsTotal;
        }
        if (count) count.textContent = run.stepsDone + ' of ' + run.stepsTotal + ' steps done';
        if (line && line.textContent !== run.line) line.textContent = run.line;
        later(run.retryAfter);
      })
      .catch(function () {
        // A network blip: try a few more times, then leave the reload link to the person.
        if (++failures < 5) later(5);
      });
  }
  later(2);
});
`;
