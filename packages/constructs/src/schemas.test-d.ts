import type {
  AlertChannelConfig,
  AlertChannelCreate,
  AlertChannelType,
  CheckGroupCreate,
  DashboardCreate,
  MaintenanceWindowCreate,
  StatusPageCreate,
  StatusPageServiceCreate,
  StatusPageVisibility,
} from '@monitor/api';
import { describe, expectTypeOf, it } from 'vitest';
import type {
  AlertChannelSwitches,
  CheckGroupProps,
  ConstructOptions,
  DashboardProps,
  EmailAlertChannelProps,
  MaintenanceWindowProps,
  OpsgenieAlertChannelProps,
  PagerdutyAlertChannelProps,
  PhoneAlertChannelProps,
  SlackAlertChannelProps,
  SlackAppAlertChannelProps,
  StatusPageProps,
  StatusPageServiceProps,
  StatusPageVisibilityProps,
  WebhookAlertChannelProps,
} from './index.js';

/** Props whose type does not fit the wire field of the same name (references, files, dates aside). */
type Misfits<P, C, Except extends PropertyKey = never> = {
  [K in Exclude<Extract<keyof P, keyof C>, Except>]-?: [NonNullable<P[K]>] extends [NonNullable<C[K]>]
    ? never
    : K;
}[Exclude<Extract<keyof P, keyof C>, Except>];
/** Wire fields that no prop sets. */
type Unset<P, C, Except extends PropertyKey = never> = Exclude<keyof C, keyof P | Except>;
/** Props the wire does not have. */
type Unknown<P, C, Except extends PropertyKey = never> = Exclude<keyof P, keyof C | Except>;

type Switches = Pick<AlertChannelCreate, keyof AlertChannelSwitches>;

describe('construct props match the request schemas of @monitor/api', () => {
  it('CheckGroup', () => {
    type Refs = 'alertChannels' | 'localSetupScript' | 'localTearDownScript' | 'environmentVariables';
    expectTypeOf<Misfits<CheckGroupProps, CheckGroupCreate, Refs>>().toEqualTypeOf<never>();
    expectTypeOf<
      Unset<CheckGroupProps, CheckGroupCreate, 'alertChannelSubscriptions'>
    >().toEqualTypeOf<never>();
    expectTypeOf<Unknown<CheckGroupProps, CheckGroupCreate, 'alertChannels'>>().toEqualTypeOf<never>();
  });

  it('Dashboard', () => {
    expectTypeOf<Misfits<DashboardProps, DashboardCreate, 'customCSS'>>().toEqualTypeOf<never>();
    // Keys are made by the service.
    expectTypeOf<Unset<DashboardProps, DashboardCreate, 'keys'>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<DashboardProps, DashboardCreate>>().toEqualTypeOf<never>();
  });

  it('StatusPage and StatusPageService', () => {
    expectTypeOf<Misfits<StatusPageProps, StatusPageCreate, 'cards'>>().toEqualTypeOf<never>();
    expectTypeOf<Unset<StatusPageProps, StatusPageCreate>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<StatusPageProps, StatusPageCreate>>().toEqualTypeOf<never>();
    expectTypeOf<Misfits<StatusPageServiceProps, StatusPageServiceCreate>>().toEqualTypeOf<never>();
    expectTypeOf<Unset<StatusPageServiceProps, StatusPageServiceCreate>>().toEqualTypeOf<never>();
  });

  it('MaintenanceWindow', () => {
    type Differs = 'startsAt' | 'endsAt' | 'repeatEndsAt' | 'tags' | 'statusPageVisibility';
    expectTypeOf<Misfits<MaintenanceWindowProps, MaintenanceWindowCreate, Differs>>().toEqualTypeOf<never>();
    expectTypeOf<Unset<MaintenanceWindowProps, MaintenanceWindowCreate>>().toEqualTypeOf<never>();
    expectTypeOf<Unknown<MaintenanceWindowProps, MaintenanceWindowCreate>>().toEqualTypeOf<never>();
    type Ids = 'statusPageIds' | 'serviceIds';
    expectTypeOf<Misfits<StatusPageVisibilityProps, StatusPageVisibility>>().toEqualTypeOf<never>();
    expectTypeOf<Unset<StatusPageVisibilityProps, StatusPageVisibility, Ids>>().toEqualTypeOf<never>();
    expectTypeOf<
      Unknown<StatusPageVisibilityProps, StatusPageVisibility, 'statusPages' | 'services'>
    >().toEqualTypeOf<never>();
  });

  it('alert channels: the switches, and each type’s config', () => {
    expectTypeOf<Misfits<AlertChannelSwitches, Switches>>().toEqualTypeOf<never>();
    expectTypeOf<Unset<AlertChannelSwitches, Switches>>().toEqualTypeOf<never>();
    const pairs = {
      EMAIL: {} as [
        Misfits<EmailAlertChannelProps, AlertChannelConfig<'EMAIL'>>,
        Unset<EmailAlertChannelProps, AlertChannelConfig<'EMAIL'>>,
        Unknown<EmailAlertChannelProps, AlertChannelConfig<'EMAIL'>>,
      ],
      SLACK: {} as [
        Misfits<SlackAlertChannelProps, AlertChannelConfig<'SLACK'>>,
        Unset<SlackAlertChannelProps, AlertChannelConfig<'SLACK'>>,
        Unknown<SlackAlertChannelProps, AlertChannelConfig<'SLACK'>>,
      ],
      SLACK_APP: {} as [
        Misfits<SlackAppAlertChannelProps, AlertChannelConfig<'SLACK_APP'>>,
        Unset<SlackAppAlertChannelProps, AlertChannelConfig<'SLACK_APP'>>,
        Unknown<SlackAppAlertChannelProps, AlertChannelConfig<'SLACK_APP'>>,
      ],
      WEBHOOK: {} as [
        Misfits<WebhookAlertChannelProps, AlertChannelConfig<'WEBHOOK'>>,
        Unset<WebhookAlertChannelProps, AlertChannelConfig<'WEBHOOK'>>,
        Unknown<WebhookAlertChannelProps, AlertChannelConfig<'WEBHOOK'>>,
      ],
      SMS: {} as [
        Misfits<PhoneAlertChannelProps, AlertChannelConfig<'SMS'>>,
        Unset<PhoneAlertChannelProps, AlertChannelConfig<'SMS'>>,
        Unknown<PhoneAlertChannelProps, AlertChannelConfig<'SMS'>>,
      ],
      CALL: {} as [
        Misfits<PhoneAlertChannelProps, AlertChannelConfig<'CALL'>>,
        Unset<PhoneAlertChannelProps, AlertChannelConfig<'CALL'>>,
        Unknown<PhoneAlertChannelProps, AlertChannelConfig<'CALL'>>,
      ],
      PAGERDUTY: {} as [
        Misfits<PagerdutyAlertChannelProps, AlertChannelConfig<'PAGERDUTY'>>,
        Unset<PagerdutyAlertChannelProps, AlertChannelConfig<'PAGERDUTY'>>,
        Unknown<PagerdutyAlertChannelProps, AlertChannelConfig<'PAGERDUTY'>>,
      ],
      OPSGENIE: {} as [
        Misfits<OpsgenieAlertChannelProps, AlertChannelConfig<'OPSGENIE'>>,
        Unset<OpsgenieAlertChannelProps, AlertChannelConfig<'OPSGENIE'>>,
        Unknown<OpsgenieAlertChannelProps, AlertChannelConfig<'OPSGENIE'>>,
      ],
    };
    expectTypeOf(pairs).toEqualTypeOf<Record<keyof typeof pairs, [never, never, never]>>();
  });

  it('no request field is named like a construct option, so every field can be a prop', () => {
    type Option = keyof ConstructOptions;
    // Every channel type's config fields, not only those they share.
    type ConfigKeys<T> = T extends unknown ? keyof AlertChannelConfig<T & AlertChannelType> : never;
    type Config = ConfigKeys<
      'EMAIL' | 'SLACK' | 'SLACK_APP' | 'WEBHOOK' | 'SMS' | 'CALL' | 'PAGERDUTY' | 'OPSGENIE'
    >;
    expectTypeOf<Extract<keyof CheckGroupCreate, Option>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof DashboardCreate, Option>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof StatusPageCreate, Option>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof StatusPageServiceCreate, Option>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof MaintenanceWindowCreate, Option>>().toEqualTypeOf<never>();
    expectTypeOf<Extract<keyof AlertChannelCreate | Config, Option>>().toEqualTypeOf<never>();
  });
});
