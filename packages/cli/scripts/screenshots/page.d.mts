export function escapeHtml(text: string): string;

/** The margin left around `#content` in the picture, in CSS pixels. */
export const MARGIN: number;

/** A `<script>` that marks the page ready (`body[data-ready]`) and its size (`body[data-size]`) once `work` settles. */
export function readyScript(work?: string): string;
