import type { RoutingTest, SourceLocation } from '@monitor/constructs';

/**
 * Routing tests with where each was made read now and mapped to the TypeScript source (`map`, the
 * config bundle's source map), callers too: what their findings point at. A copy of each test.
 */
export function locatedTests(
  tests: readonly RoutingTest[],
  map: (location: SourceLocation) => SourceLocation,
): RoutingTest[] {
  return tests.map((test) => {
    const at = test.location;
    if (at === undefined) return test;
    const { callers, ...own } = at;
    const location = { ...map(own), callers: (callers ?? []).map(map) };
    return { ...test, location };
  });
}
