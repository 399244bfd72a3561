import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { rich } from './rich';

describe('rich: a sentence with elements inside it', () => {
  it('puts each element where its name stands, keeping the text around it', () => {
    const html = renderToStaticMarkup(
      <p>{rich('打开{store}，选择{domain}。', { store: <a href="/store">商店</a>, domain: <b>域名</b> })}</p>,
    );
    expect(html).toBe('<p>打开<a href="/store">商店</a>，选择<b>域名</b>。</p>');
  });

  it('leaves a name without an element as written', () => {
    const html = renderToStaticMarkup(<p>{rich('{first} and {second}', { first: <i>one</i> })}</p>);
    expect(html).toBe('<p><i>one</i> and {second}</p>');
  });
});
