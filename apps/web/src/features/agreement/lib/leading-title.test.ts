import { describe, expect, it } from 'vitest';
import { withoutLeadingTitle } from './leading-title.ts';

describe('an agreement shown under its title', () => {
  it('drops an opening heading that repeats the title', () => {
    expect(withoutLeadingTitle('<h2>蓝鲸卡用户服务协议</h2><p>欢迎</p>', '蓝鲸卡用户服务协议')).toBe('<p>欢迎</p>');
    expect(withoutLeadingTitle('\n <h1 class="t"><strong>用户 协议</strong></h1>\n<p>x</p>', '用户 协议')).toBe('\n<p>x</p>');
  });

  it('keeps a heading that says something else, and one that is not first', () => {
    expect(withoutLeadingTitle('<h2>第一章</h2><p>x</p>', '用户协议')).toBe('<h2>第一章</h2><p>x</p>');
    expect(withoutLeadingTitle('<p>前言</p><h2>用户协议</h2>', '用户协议')).toBe('<p>前言</p><h2>用户协议</h2>');
  });
});
