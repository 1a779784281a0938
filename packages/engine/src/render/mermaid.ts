import type { PictureEdge, PictureNode, RoutePicture } from '../routing/picture.js';
import { escapeMermaid } from './escape.js';

/** Who gets paged as a Mermaid flowchart: what GitHub and GitLab draw from a ```mermaid block. */

const CLASSES = [
  'classDef group fill:#ddf4ff,stroke:#0969da,color:#0a3069',
  'classDef unrouted fill:#ffebe9,stroke:#cf222e,color:#82071e',
  'classDef event fill:#f6f8fa,stroke:#8c959f,color:#24292f',
  'classDef channel fill:#dafbe1,stroke:#1a7f37,color:#044f1e',
  'classDef nobody fill:#ffebe9,stroke:#cf222e,color:#82071e',
  'classDef more fill:#ffffff,stroke:#8c959f,stroke-dasharray:4 3,color:#57606a',
];

const label = (lines: readonly string[]) => `"${lines.map(escapeMermaid).join('<br/>')}"`;

const SHAPES: Record<PictureNode['kind'], (text: string) => string> = {
  group: (text) => `[${text}]`,
  event: (text) => `([${text}])`,
  channel: (text) => `(${text})`,
  nobody: (text) => `{{${text}}}`,
  more: (text) => `[${text}]`,
};

function nodeLine(node: PictureNode): string {
  const style = node.unrouted === true ? 'unrouted' : node.kind;
  return `  ${node.id}${SHAPES[node.kind](label(node.lines))}:::${style}`;
}

const ARROWS: Record<PictureEdge['change'], string> = { same: '-->', added: '==>', removed: '-.->' };

function edgeLine(edge: PictureEdge): string {
  const text = edge.lines.length === 0 ? '' : `|${label(edge.lines)}|`;
  return `  ${edge.from} ${ARROWS[edge.change]}${text} ${edge.to}`;
}

/** `linkStyle 1,4 …`: Mermaid styles edges by their place in the chart. */
function edgeStyles(edges: readonly PictureEdge[]): string[] {
  const at = (change: PictureEdge['change']) =>
    edges.flatMap((e, i) => (e.change === change ? [i] : [])).join(',');
  const added = at('added');
  const removed = at('removed');
  return [
    ...(added === '' ? [] : [`  linkStyle ${added} stroke:#1a7f37,stroke-width:3px`]),
    ...(removed === ''
      ? []
      : [`  linkStyle ${removed} stroke:#cf222e,stroke-width:2px,stroke-dasharray:6 4`]),
  ];
}

/**
 * The picture as a Mermaid flowchart, left to right. Labels are escaped (`escapeMermaid`); node
 * ids are the picture's own. A plan's edges that appear are thick and green, those that go dotted
 * and red.
 */
export function renderRoutesMermaid(picture: RoutePicture): string {
  return [
    'flowchart LR',
    ...CLASSES.map((c) => `  ${c}`),
    ...picture.nodes.map(nodeLine),
    ...picture.edges.map(edgeLine),
    ...edgeStyles(picture.edges),
  ].join('\n');
}
