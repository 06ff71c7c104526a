import { describe, expect, it } from 'vitest';
import { noticeTitle, plainText } from './text.ts';

describe('noticeTitle', () => {
  it('keeps a title of up to 15 characters as it is', () => {
    expect(noticeTitle('系统维护通知')).toBe('系统维护通知');
    expect(noticeTitle('一二三四五六七八九十一二三四五')).toBe('一二三四五六七八九十一二三四五');
  });

  it('cuts a longer title to 15 characters and an ellipsis', () => {
    expect(noticeTitle('一二三四五六七八九十一二三四五六七八九十')).toBe('一二三四五六七八九十一二三四五…');
    expect(noticeTitle('ABCDEFGHIJKLMNOP')).toBe('ABCDEFGHIJKLMNO…');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(noticeTitle('🎉'.repeat(16))).toBe(`${'🎉'.repeat(15)}…`);
  });
});

describe('plainText', () => {
  it('keeps the words of the HTML and drops its tags', () => {
    expect(plainText('<h3>春节服务安排</h3><p>人工客服<b>暂停</b>服务，<a href="https://example.com">查看详情</a>。</p>')).toBe(
      '春节服务安排 人工客服 暂停 服务， 查看详情 。',
    );
  });

  it('drops scripts, styles and comments with their contents', () => {
    expect(plainText('<p>到账</p><script>alert(1)</script><style>p{color:red}</style><!-- note -->')).toBe('到账');
  });

  it('is not fooled by a ">" inside an attribute', () => {
    expect(plainText('<img alt="a>b" src="x" onerror="alert(1)">图片')).toBe('图片');
  });

  it('decodes entities', () => {
    expect(plainText('<p>A &amp; B&nbsp;&lt;C&gt; &#20320;&#x597D; &ldquo;好&rdquo; &bogus;</p>')).toBe('A & B <C> 你好 “好” &bogus;');
  });

  it('answers nothing for nothing', () => {
    expect(plainText('')).toBe('');
    expect(plainText('<p> </p>')).toBe('');
  });
});
