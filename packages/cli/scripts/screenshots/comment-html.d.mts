/** The emoji of `html`'s text as images, leaving Mermaid's sources alone. */
export function emojiAsImages(html: string): string;

/** The comment's markdown as GitHub renders it: GFM, alerts, diffs, Mermaid blocks and emoji. */
export function commentHtml(source: string, options?: { openDetails?: boolean }): string;

/** A page with one comment: `header` (text) above `bodyHtml`; Mermaid from `mermaidUrl` when it has Mermaid blocks. */
export function commentPage(options: { header: string; bodyHtml: string; mermaidUrl?: string }): string;
