import { describe, expect, it } from 'vitest';
import { SourceText } from './prop-location.js';

const SOURCE = `import { CheckGroup } from '@monitor/constructs';
const shared = { amount: 2 };
export const payments = new CheckGroup('payments', {
  // a comment with a } and a ,
  name: '',
  locations: ['eu-west-1', "mars-1", \`us-\${'east'}-1\`],
  'tags': ['a,b', '}'],
  apiCheckDefaults: {
    headers: [
      { key: 'A', value: 'x' },
      { key: '', value: 'y' },
    ],
  },
  alertSettings: shared,
  concurrency,
  ...spread,
  muted: true,
});
`;
const AT = { line: 3, column: 25 };

describe('propPosition', () => {
  it.each([
    { path: 'name', at: { line: 5, column: 3 } },
    { path: 'locations', at: { line: 6, column: 3 } },
    { path: 'locations[1]', at: { line: 6, column: 28 } },
    { path: 'locations[2]', at: { line: 6, column: 38 } },
    { path: 'tags[1]', at: { line: 7, column: 19 } },
    { path: 'apiCheckDefaults.headers[1].key', at: { line: 11, column: 9 } },
    { path: 'apiCheckDefaults.headers[1]', at: { line: 11, column: 7 } },
    // Computed: the deepest prop written in the construct.
    { path: 'alertSettings.reminders.amount', at: { line: 14, column: 3 } },
    { path: 'concurrency', at: { line: 15, column: 3 } },
    { path: 'muted', at: { line: 17, column: 3 } },
  ])('$path', ({ path, at }) => {
    expect(new SourceText(SOURCE).propPosition(AT, path)).toEqual(at);
  });

  it('is undefined when the prop is not written in the construct, or the props are not a literal', () => {
    expect(new SourceText(SOURCE).propPosition(AT, 'doubleCheck')).toBeUndefined();
    const computed = "new CheckGroup('g', props);\n";
    expect(new SourceText(computed).propPosition({ line: 1, column: 1 }, 'name')).toBeUndefined();
  });
});
