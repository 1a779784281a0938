import type { PictureEdge, PictureNode, RoutePicture } from '../routing/picture.js';
import { escapeDot } from './escape.js';

/** Who gets paged as a Graphviz graph (`dot -Tsvg`). */

const NODE_ATTRIBUTES: Record<PictureNode['kind'], string> = {
  group: 'shape=box, fillcolor="#ddf4ff", color="#0969da"',
  event: 'shape=box, style="rounded,filled", fillcolor="#f6f8fa", color="#8c959f"',
  channel: 'shape=box, style="rounded,filled", fillcolor="#dafbe1", color="#1a7f37"',
  nobody: 'shape=hexagon, fillcolor="#ffebe9", color="#cf222e"',
  more: 'shape=box, style="dashed", color="#8c959f", fontcolor="#57606a"',
};
const UNROUTED = 'shape=box, fillcolor="#ffebe9", color="#cf222e"';

const EDGE_ATTRIBUTES: Record<PictureEdge['change'], string> = {
  same: '',
  added: 'color="#1a7f37", penwidth=2.5',
  removed: 'color="#cf222e", style=dashed',
};

const label = (lines: readonly string[]) => `"${lines.map(escapeDot).join('\\n')}"`;

function nodeLine(node: PictureNode): string {
  return `  ${node.id} [label=${label(node.lines)}, ${node.unrouted === true ? UNROUTED : NODE_ATTRIBUTES[node.kind]}];`;
}

function edgeLine(edge: PictureEdge): string {
  const attributes = [
    ...(edge.lines.length === 0 ? [] : [`label=${label(edge.lines)}`]),
    ...(EDGE_ATTRIBUTES[edge.change] === '' ? [] : [EDGE_ATTRIBUTES[edge.change]]),
  ];
  return `  ${edge.from} -> ${edge.to}${attributes.length === 0 ? '' : ` [${attributes.join(', ')}]`};`;
}

/** The picture as a Graphviz digraph, left to right; labels escaped (`escapeDot`). */
export function renderRoutesDot(picture: RoutePicture): string {
  return [
    'digraph routes {',
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=11, style=filled];',
    '  edge [fontname="Helvetica", fontsize=9];',
    ...picture.nodes.map(nodeLine),
    ...picture.edges.map(edgeLine),
    '}',
  ].join('\n');
}
