import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { withRefusals } from '../../src/http/route-documentation.ts';

type Input = Parameters<typeof jsonSchemaTransform>[0];

describe("the API map's transform", () => {
  it('maps a route registered without a schema as it is, rather than failing the whole map', () => {
    const transform = withRefusals(jsonSchemaTransform);
    const input = { schema: undefined, url: '/plain', route: { method: 'GET', url: '/plain' } } as unknown as Input;
    expect(() => transform(input)).not.toThrow();
    expect(transform(input).schema).toBeUndefined();
  });
});
