/**
 * The OpenAPI document writes what operations repeat once, under `components` (error responses,
 * response headers, the UUID schema), and every operation still lists exactly the error codes
 * route-errors.ts gives it.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../shared/http/contract/openapi.js';
import { routeErrorResponses } from '../../shared/http/contract/route-errors.js';
import { routeList } from '../../shared/http/contract/route-table.js';

interface Response {
  $ref?: string;
  headers?: Record<string, { $ref?: string }>;
  content?: { 'application/json': { schema: { properties: { error_code: { enum: string[] } } } } };
}
const document = openApiDocument(routeList) as unknown as {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
  components: {
    responses: Record<string, Response>;
    headers: Record<string, unknown>;
    schemas: Record<string, unknown>;
  };
};
const COMPONENT = '#/components/responses/';

const responsesOf = (route: (typeof routeList)[number]) =>
  document.paths[route.path]![route.method.toLowerCase()]!.responses;

describe('the error responses of the OpenAPI document', () => {
  it('are references to components/responses that list exactly each route’s codes per status', () => {
    for (const route of routeList) {
      const expected = new Map<string, string[]>();
      for (const { status, code } of routeErrorResponses(route))
        expected.set(String(status), [...(expected.get(String(status)) ?? []), code]);
      const documented = Object.entries(responsesOf(route)).filter(([status]) => Number(status) >= 400);
      expect(documented.map(([status]) => status)).toEqual([...expected.keys()]);
      for (const [status, response] of documented) {
        expect(Object.keys(response), `${route.name} ${status}`).toEqual(['$ref']);
        expect(response.$ref).toMatch(new RegExp(`^${COMPONENT}Error${status}-`));
        const component = document.components.responses[response.$ref!.slice(COMPONENT.length)];
        expect(component?.content?.['application/json'].schema.properties.error_code.enum).toEqual(
          expected.get(status),
        );
      }
    }
  });

  it('are written once each, and each one is used', () => {
    const used = new Set(
      routeList.flatMap((route) =>
        Object.values(responsesOf(route)).flatMap((response) => (response.$ref ? [response.$ref] : [])),
      ),
    );
    expect([...used].sort()).toEqual(
      Object.keys(document.components.responses)
        .map((id) => COMPONENT + id)
        .sort(),
    );
    const bodies = Object.values(document.components.responses).map((response) => JSON.stringify(response));
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('name their rate-limit headers, and 429 its Retry-After, from components/headers', () => {
    for (const [id, response] of Object.entries(document.components.responses)) {
      expect(response.headers).toMatchObject({
        RateLimit: { $ref: '#/components/headers/RateLimit' },
        'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
      });
      expect('Retry-After' in response.headers!, id).toBe(id.startsWith('Error429-'));
    }
    for (const route of routeList) {
      const success = responsesOf(route)[String(route.status)]!;
      expect(success.headers?.RateLimit).toEqual({ $ref: '#/components/headers/RateLimit' });
    }
  });
});

describe('the UUID schema of the OpenAPI document', () => {
  it('is one component that every id references', () => {
    const text = JSON.stringify(document);
    expect(text.match(/"format":"uuid"/g)).toHaveLength(1);
    expect(document.components.schemas.Uuid).toMatchObject({ type: 'string', format: 'uuid' });
    expect(text.split('"$ref":"#/components/schemas/Uuid"').length - 1).toBeGreaterThan(routeList.length);
  });
});
