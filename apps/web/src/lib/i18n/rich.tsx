import { Fragment, type ReactNode } from 'react';

/**
 * A translated sentence with elements inside it (a link, a code span): `rich(t('打开{store}，…'),
 * { store: <Link …/> })`. The sentence stays one text, so each language puts the element where its
 * grammar wants it; `{name}` without an element stays as written.
 */
export function rich(text: string, elements: Record<string, ReactNode>): ReactNode {
  const parts = text.split(/\{(\w+)\}/);
  return parts.map((part, index) => {
    // Odd indexes are the names captured between braces.
    const key = `${index}:${part}`;
    if (index % 2 === 0) return part === '' ? null : <Fragment key={key}>{part}</Fragment>;
    return <Fragment key={key}>{part in elements ? elements[part] : `{${part}}`}</Fragment>;
  });
}
