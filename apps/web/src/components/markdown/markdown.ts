/**
 * A small Markdown reader for the changelog: ATX headings, paragraphs, bullet and numbered lists,
 * fenced code, rules, and inline code, bold, italic and links. Enough for CHANGELOG.md without a
 * dependency; anything else stays plain text.
 */
export type MarkdownInline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: MarkdownInline[] }
  | { kind: 'emphasis'; children: MarkdownInline[] }
  | { kind: 'link'; href: string; children: MarkdownInline[] };

export type MarkdownBlock =
  | { kind: 'heading'; level: number; children: MarkdownInline[] }
  | { kind: 'paragraph'; children: MarkdownInline[] }
  | { kind: 'list'; ordered: boolean; items: MarkdownInline[][] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' };

const SAFE_LINK = /^(https?:|mailto:)/i;

export function parseInline(text: string): MarkdownInline[] {
  const nodes: MarkdownInline[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) nodes.push({ kind: 'text', text: text.slice(last, match.index) });
    const [whole, code, strong, emphasis, label, href] = match;
    if (code !== undefined) nodes.push({ kind: 'code', text: code });
    else if (strong !== undefined) nodes.push({ kind: 'strong', children: parseInline(strong) });
    else if (emphasis !== undefined) nodes.push({ kind: 'emphasis', children: parseInline(emphasis) });
    else if (label !== undefined && href !== undefined) {
      if (SAFE_LINK.test(href)) nodes.push({ kind: 'link', href, children: parseInline(label) });
      else nodes.push({ kind: 'text', text: whole });
    }
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push({ kind: 'text', text: text.slice(last) });
  return nodes;
}

export function parseMarkdown(source: string): MarkdownBlock[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: MarkdownBlock[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;

  const flush = () => {
    if (paragraph.length > 0) {
      blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join(' ')) });
      paragraph = [];
    }
    if (list) {
      blocks.push({ kind: 'list', ordered: list.ordered, items: list.items.map(parseInline) });
      list = null;
    }
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    if (/^```/.test(line)) {
      flush();
      const code: string[] = [];
      for (index++; index < lines.length && !/^```/.test(lines[index] ?? ''); index++)
        code.push(lines[index] ?? '');
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      blocks.push({
        kind: 'heading',
        level: heading[1]?.length ?? 1,
        children: parseInline(heading[2] ?? ''),
      });
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const ordered = numbered !== null && bullet === null;
      if (paragraph.length > 0 || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(item[1] ?? '');
      continue;
    }
    if (!line.trim()) {
      flush();
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      // A continuation line of the last item.
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (list) flush();
    paragraph.push(line.trim());
  }
  flush();
  return blocks;
}
