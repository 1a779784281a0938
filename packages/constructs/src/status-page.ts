import { STATUS_PAGE_DEFAULTS, type ThemeColors } from '@monitor/api/definitions';
import {
  Construct,
  type ConstructOptions,
  FRESH,
  type ProjectConstructRef,
  projectRef,
  type RemoteRef,
  remoteRef,
  type SynthContext,
} from './construct.js';
import { PROP_PATH, SYNTHESIZE } from './session.js';
import { type KindSource, listOf, replaceProp, requestFields, sourceRef, topField } from './source.js';

export interface StatusPageServiceProps {
  /** Name of the service shown on status pages. Required; unique per account is wise (it is the natural key). */
  name: string;
}

/** A service shown on status pages and named by incidents. */
export class StatusPageService extends Construct<StatusPageServiceProps> {
  readonly kind = 'StatusPageService' as const;

  constructor(logicalId: string, props: StatusPageServiceProps, options?: ConstructOptions) {
    super(logicalId, props, options);
  }

  /** An existing service, by id: referred to, never created, changed or deleted. */
  static fromId(id: string): RemoteRef<'StatusPageService'> {
    return remoteRef('StatusPageService', id);
  }

  /** A status-page service another project owns (`projectName`), by its logical id there: referred to, never created, changed or deleted. */
  static fromProject(project: string, logicalId: string): ProjectConstructRef<'StatusPageService'> {
    return projectRef('StatusPageService', project, logicalId);
  }

  [SYNTHESIZE](ctx: SynthContext): Record<string, unknown> {
    return { ...ctx.defaults, ...this.props };
  }
}

export type StatusPageServiceRef =
  | StatusPageService
  | RemoteRef<'StatusPageService'>
  | ProjectConstructRef<'StatusPageService'>;

export interface StatusPageCardProps {
  /** Title of the card. Cards are matched by name, so keep names unique on a page. */
  name: string;
  /** Services shown on the card. @default [] */
  services?: StatusPageServiceRef[];
}

export interface StatusPageProps {
  /** Name of the page. Required. */
  name: string;
  /** Subdomain of the page; lower-cased by the service, unique across all users. Required. */
  url: string;
  /** Cards of the page, in order. @default [] */
  cards?: StatusPageCardProps[];
  /** Text under the title, at most 500 characters. @default null */
  description?: string | null;
  /** A custom domain. @default null */
  customDomain?: string | null;
  /**
   * Colours of the light and dark themes, twelve of each. Left out, the page has the service's
   * theme (the service takes no `null` here).
   * @default the service's theme
   */
  themeColors?: ThemeColors;
  /** URL of the logo, http or https. @default null */
  logo?: string | null;
  /** URL of the logo on the dark theme, http or https. @default null */
  logoDark?: string | null;
  /** URL visitors are redirected to, http or https. @default null */
  redirectTo?: string | null;
  /** URL of the favicon, http or https. @default null */
  favicon?: string | null;
  /** Theme shown first. @default 'AUTO' */
  defaultTheme?: 'LIGHT' | 'DARK' | 'AUTO';
}

/**
 * Anything a maintenance window's `statusPages` accepts: a status-page construct,
 * `StatusPage.fromId(id)` or `StatusPage.fromProject(project, logicalId)`.
 */
export type StatusPageRef = StatusPage | RemoteRef<'StatusPage'> | ProjectConstructRef<'StatusPage'>;

/** A status page with cards of services. */
export class StatusPage extends Construct<StatusPageProps> {
  readonly kind = 'StatusPage' as const;

  constructor(logicalId: string, props: StatusPageProps, options?: ConstructOptions) {
    super(logicalId, props, options);
  }

  /** An existing status page, by id: referred to, never created, changed or deleted. */
  static fromId(id: string): RemoteRef<'StatusPage'> {
    return remoteRef('StatusPage', id);
  }

  /** A status page another project owns (`projectName`), by its logical id there: referred to, never created, changed or deleted. */
  static fromProject(project: string, logicalId: string): ProjectConstructRef<'StatusPage'> {
    return projectRef('StatusPage', project, logicalId);
  }

  [SYNTHESIZE](ctx: SynthContext): Record<string, unknown> {
    const { cards, url, ...rest } = { ...ctx.defaults, ...this.props } as StatusPageProps;
    return {
      ...FRESH,
      ...STATUS_PAGE_DEFAULTS,
      ...rest,
      // The service lower-cases urls; desired says what will be read back.
      url: typeof url === 'string' ? url.toLowerCase() : url,
      cards: (cards ?? []).map((card, i) => ({
        name: card.name,
        services: (card.services ?? []).map((service, j) => ({
          id: ctx.ref(service, 'StatusPageService', `cards[${i}].services[${j}]`),
        })),
      })),
    };
  }

  override [PROP_PATH](payloadPath: string): string {
    return payloadPath.replace(/(services\[\d+\])\.id$/, '$1');
  }
}

/** A live status-page service as code. */
export const statusPageServiceSource: KindSource = {
  // Beside the pages that show them.
  module: 'status-pages',
  source: (live) => ({ construct: StatusPageService.name, props: requestFields(live, 'StatusPageService') }),
};

/** A live status page as code: the services of its cards become references. */
export const statusPageSource: KindSource = {
  module: 'status-pages',
  source: (live) => {
    const cards = listOf(live.cards).map((card) => ({
      name: card.name,
      services: listOf(card.services).map((service) => sourceRef('StatusPageService', service.id)),
    }));
    return {
      construct: StatusPage.name,
      props: replaceProp(requestFields(live, 'StatusPage'), 'cards', { cards }),
    };
  },
  // A card's services are references: its cards are written again whole.
  propOf: (path) => (topField(path) === 'cards' ? { prop: 'cards' } : { prop: topField(path), path }),
};
