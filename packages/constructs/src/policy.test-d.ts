import { describe, expectTypeOf, it } from 'vitest';
import {
  type ConstructPolicy,
  defineConfig,
  definePolicy,
  type KindResource,
  type PolicyRef,
  type PolicyResource,
} from './index.js';

/**
 * Policies as the docs write them, under `strict`: a rule with `kinds` reads its kind's payload
 * without casts (docs/policies.md's pack failed here with "'group.payload.tags' is of type 'unknown'").
 */
describe('definePolicy', () => {
  it("a rule of kinds ['CheckGroup'] sees a check group's payload, typed", () => {
    const ownerTag = definePolicy({
      name: 'acme/owner-tag',
      description: 'Every check group names its owning team in a team:* tag.',
      severity: 'error',
      kinds: ['CheckGroup'],
      check: (group) => {
        expectTypeOf(group).toEqualTypeOf<KindResource<'CheckGroup'>>();
        expectTypeOf(group.kind).toEqualTypeOf<'CheckGroup'>();
        expectTypeOf(group.payload.name).toEqualTypeOf<string>();
        expectTypeOf(group.payload.muted).toEqualTypeOf<boolean>();
        expectTypeOf(group.payload.alertChannelSubscriptions[0]?.alertChannelId).toEqualTypeOf<
          PolicyRef<number> | undefined
        >();
        return group.payload.tags.some((tag) => tag.startsWith('team:')) ? undefined : 'has no team:* tag';
      },
    });
    expectTypeOf(ownerTag).toMatchTypeOf<ConstructPolicy>();
    // It goes where every policy goes: the config's list.
    defineConfig({ projectName: 'p', policies: [ownerTag] });
  });

  it('a rule of several kinds sees one resource type per kind, told apart by kind', () => {
    definePolicy({
      name: 'named',
      description: 'Windows and pages say what they are.',
      severity: 'warning',
      kinds: ['MaintenanceWindow', 'StatusPage'],
      check: (resource) => {
        if (resource.kind === 'MaintenanceWindow') {
          expectTypeOf(resource.payload.silenceAllAlerts).toEqualTypeOf<boolean>();
          expectTypeOf(resource.payload.statusPageVisibility.statusPageIds).toEqualTypeOf<
            PolicyRef<string>[]
          >();
          return undefined;
        }
        expectTypeOf(resource.kind).toEqualTypeOf<'StatusPage'>();
        return resource.payload.cards.length === 0 ? 'has no cards' : undefined;
      },
    });
  });

  it("an alert channel's payload is a union by type", () => {
    definePolicy({
      name: 'slack-channel',
      description: 'Slack channels name their channel.',
      severity: 'info',
      kinds: ['AlertChannel'],
      check: (channel) => {
        expectTypeOf(channel.payload.sendFailure).toEqualTypeOf<boolean>();
        if (channel.payload.type !== 'SLACK') return undefined;
        expectTypeOf(channel.payload.config.channel).toEqualTypeOf<string | undefined>();
        return undefined;
      },
    });
  });

  it('a rule without kinds sees any construct, its payload a plain record', () => {
    definePolicy({
      name: 'any',
      description: 'Anything.',
      severity: 'info',
      check: (resource) => {
        expectTypeOf(resource).toEqualTypeOf<PolicyResource>();
        expectTypeOf(resource.payload).toEqualTypeOf<Readonly<Record<string, unknown>>>();
      },
    });
  });

  it('a typed payload is read-only, and a kind not in kinds is no kind of the rule', () => {
    definePolicy({
      name: 'ro',
      description: 'Read only.',
      severity: 'info',
      kinds: ['Dashboard'],
      check: (dashboard) => {
        // @ts-expect-error a policy cannot change what it checks
        dashboard.payload.header = 'x';
        // @ts-expect-error only dashboards come here
        if (dashboard.kind === 'CheckGroup') return 'never';
        return undefined;
      },
    });
  });
});
