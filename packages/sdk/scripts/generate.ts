/** Writes src/open-api.ts: the types of the calls open to API keys, from the document the server builds. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOpenApiDocument } from '../../../apps/server/src/open-api/document.ts';
import { typesOf } from '../src/types-of.ts';

const target = path.resolve(import.meta.dirname, '../src/open-api.ts');
await writeFile(target, await typesOf(await buildOpenApiDocument()));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
