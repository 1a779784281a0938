// What the pages of the screenshots share: HTML escaping, and the script that tells the
// screenshot script (through the DOM Chromium dumps) when a page is complete and how big it is.

export function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The margin left around `#content` in the picture, in CSS pixels. */
export const MARGIN = 16;

/**
 * A `<script>` that waits for `work` (a JavaScript expression of a promise: what draws the page)
 * and the fonts, then writes the size the picture needs (`#content` and the margin) to
 * `body[data-size]` as `WIDTHxHEIGHT`, and `body[data-ready]`: `yes`, or what went wrong.
 */
export function readyScript(work = 'Promise.resolve()') {
  return `<script>
Promise.resolve()
  .then(() => ${work})
  .then(() => document.fonts.ready)
  .then(
    () => {
      const box = document.getElementById('content').getBoundingClientRect();
      document.body.dataset.size = Math.ceil(box.right + ${MARGIN}) + 'x' + Math.ceil(box.bottom + ${MARGIN});
      document.body.dataset.ready = 'yes';
    },
    (e) => { document.body.dataset.ready = 'failed: ' + (e && e.message ? e.message : String(e)); },
  );
</script>`;
}
