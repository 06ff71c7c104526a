import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from '../lib/html.ts';
import { type MerchantService, normaliseHost } from '../modules/merchants/service.ts';

/** The page a host that is no merchant's answers at /console/: there is no console to open there. */
const refusedPage = (host: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>无法打开商户控制台</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f7fa;color:#1f2937}
main{max-width:480px;margin:18vh auto 0;padding:32px;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 12px}p{margin:0;line-height:1.7;color:#4b5563}</style></head>
<body><main><h1>无法打开商户控制台</h1><p>域名 ${escapeHtml(host)} 没有对应的商户，商户控制台只在商户自己的域名下提供。请确认地址，或联系平台开通。</p></main></body></html>`;

/**
 * Serves the built console at /console/ (its own bundle: the portal's pages never load it): hashed
 * assets cached for good, and its page for every other path below /console/ on a merchant's host; a
 * host that is no merchant's gets a page saying so.
 */
export async function registerConsoleApp(app: FastifyInstance, consoleDist: string, merchants: Pick<MerchantService, 'byHost'>) {
  const indexFile = path.join(consoleDist, 'index.html');
  const hasConsole = existsSync(indexFile);
  if (hasConsole) {
    await app.register(fastifyStatic, {
      root: path.join(consoleDist, 'assets'),
      prefix: '/console/assets/',
      decorateReply: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res) => res.setHeader('cache-control', 'public, max-age=31536000, immutable'),
    });
  }
  // read once: a new build comes with a restart
  const built = hasConsole ? readFileSync(indexFile, 'utf8') : null;
  const answer = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    const host = normaliseHost(request.headers.host);
    const merchant = await merchants.byHost(host);
    reply.header('cache-control', 'no-cache').header('vary', 'host').type('text/html; charset=utf-8');
    if (!merchant) return reply.code(404).send(refusedPage(host));
    if (!built) return reply.code(503).send('<!doctype html><html lang="zh-CN"><meta charset="UTF-8"><title>商户控制台</title><p>商户控制台尚未构建（npm run build -w @portal/console）。</p></html>');
    return reply.send(built);
  };
  // pages, not calls: the API map leaves them out
  const page = { schema: { hide: true } };
  app.get('/console', page, (_request, reply) => reply.redirect('/console/'));
  app.get('/console/', page, answer);
  app.get('/console/*', page, answer);
}
