/**
 * The OpenAPI 3.1 document served at /api/v1/openapi.json, built from the plan, route, error
 * and row tables that the server enforces (issue 2, item 7), so it cannot drift from them.
 */
import { PLANS } from '../plans.js';
import { buildSchemas, buildSecuritySchemes, SECURITY_SCHEME_NAMES } from './components.js';
import { buildDescription } from './description.js';
import { buildHeaderComponents } from './headers.js';
import { allErrorUses, buildPaths, TAGS } from './paths.js';
import { buildErrorResponses } from './responses.js';

/** Operator settings and facts the document shows. */
export interface OpenApiOptions {
  /** Absolute base address of the service, without a trailing slash, e.g. `https://api.example.org`. */
  baseUrl: string;
  /** Licence string every response carries. */
  license: string;
  /** Credit to show when the written analysis is reused. */
  attribution: string;
  /** Version of the package, published as `info.version`. */
  packageVersion: string;
}

/**
 * The plan table in the snake_case of the wire, for the `x-plans` extension.
 *
 * @returns one object per plan of {@link PLANS}, in table order.
 */
export function plansExtension(): Record<string, unknown>[] {
  return PLANS.map((plan) => ({
    id: plan.id,
    label: plan.label,
    per_minute: plan.perMinute,
    per_day: plan.perDay,
    max_page_size: plan.maxPageSize,
    summaries: plan.summaries,
  }));
}

/**
 * Builds the OpenAPI 3.1.0 document as a plain object. Pure; call once at start-up and
 * serialise once.
 *
 * @param options - base address, licence, attribution and package version to publish.
 * @returns a fresh object that shares nothing with the tables.
 */
export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const responses = buildErrorResponses(options.license, allErrorUses());
  return {
    openapi: '3.1.0',
    info: {
      title: 'equity-facts',
      version: options.packageVersion,
      summary: 'Read-only facts about U.S. equities from SEC EDGAR.',
      description: buildDescription(options.license, options.attribution),
      license: { name: options.license },
    },
    'x-plans': plansExtension(),
    servers: [{ url: options.baseUrl }],
    security: [{ [SECURITY_SCHEME_NAMES.bearer]: [] }, { [SECURITY_SCHEME_NAMES.apiKey]: [] }],
    tags: TAGS.map((tag) => ({ ...tag })),
    paths: buildPaths(responses),
    components: {
      schemas: buildSchemas(),
      responses,
      headers: buildHeaderComponents(),
      securitySchemes: buildSecuritySchemes(),
    },
  };
}
