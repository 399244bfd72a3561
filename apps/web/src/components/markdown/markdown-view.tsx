import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { type MarkdownBlock, type MarkdownInline, parseMarkdown } from './markdown';

const { Title, Paragraph, Text, Link } = Typography;

function inline(nodes: MarkdownInline[]): ReactNode[] {
  return nodes.map((node, index) => inlineNode(node, `${index}-${node.kind}`));
}

function inlineNode(node: MarkdownInline, key: string): ReactNode {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'code':
      return (
        <Text key={key} code>
          {node.text}
        </Text>
      );
    case 'strong':
      return (
        <Text key={key} strong>
          {inline(node.children)}
        </Text>
      );
    case 'emphasis':
      return (
        <Text key={key} italic>
          {inline(node.children)}
        </Text>
      );
    case 'link':
      return (
        <Link key={key} href={node.href} target="_blank" rel="noopener noreferrer">
          {inline(node.children)}
        </Link>
      );
  }
}

function block(node: MarkdownBlock, index: number): ReactNode {
  const key = `${index}-${node.kind}`;
  switch (node.kind) {
    case 'heading':
      return (
        <Title key={key} level={Math.min(5, node.level + 1) as 2 | 3 | 4 | 5}>
          {inline(node.children)}
        </Title>
      );
    case 'paragraph':
      return <Paragraph key={key}>{inline(node.children)}</Paragraph>;
    case 'list': {
      const items = node.items.map((item, itemIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity beyond their place
        <li key={itemIndex}>{inline(item)}</li>
      ));
      return node.ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>;
    }
    case 'code':
      return (
        <pre key={key} className="markdown-code">
          <code>{node.text}</code>
        </pre>
      );
    case 'rule':
      return <hr key={key} />;
  }
}

/**
 * Renders Markdown (the changelog) as React elements: the text never becomes HTML, so nothing in it
 * can run; links keep only http(s) and mailto addresses.
 */
export function MarkdownView({ source }: { source: string }) {
  return <div className="markdown-view">{parseMarkdown(source).map(block)}</div>;
}
