import {
  BoldOutlined,
  ItalicOutlined,
  OrderedListOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { type ReactNode, useEffect, useRef } from 'react';
import { t } from '../../../lib/i18n';

interface Command {
  command: string;
  label: string;
  icon: ReactNode;
}

/** The toolbar's commands (a function: their labels are read in the interface's language at render). */
const commands = (): Command[] => [
  { command: 'bold', label: t('加粗'), icon: <BoldOutlined /> },
  { command: 'italic', label: t('斜体'), icon: <ItalicOutlined /> },
  { command: 'underline', label: t('下划线'), icon: <UnderlineOutlined /> },
  { command: 'strikeThrough', label: t('删除线'), icon: <StrikethroughOutlined /> },
  { command: 'insertUnorderedList', label: t('项目符号列表'), icon: <UnorderedListOutlined /> },
  { command: 'insertOrderedList', label: t('编号列表'), icon: <OrderedListOutlined /> },
];

/** Whether the editor holds anything worth sending (text or an image), not just empty paragraphs. */
export function hasContent(html: string): boolean {
  if (/<img\b/i.test(html)) return true;
  return (
    html
      .replace(/<[^>]+>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim().length > 0
  );
}

/**
 * A small rich-text editor: a contentEditable area with the browser's own editing commands, so no
 * editor library enters the bundle. The server derives the plain-text alternative from the HTML.
 * `initialHtml` is read when the component mounts (give it a new `key` to start over).
 */
export function RichTextEditor({
  initialHtml,
  onChange,
  label,
}: {
  initialHtml: string;
  onChange: (html: string) => void;
  label: string;
}) {
  const area = useRef<HTMLDivElement>(null);
  const initial = useRef(initialHtml);

  useEffect(() => {
    if (area.current) area.current.innerHTML = initial.current;
  }, []);

  const run = (command: string) => {
    area.current?.focus();
    // execCommand is deprecated on paper but is what every browser implements for contentEditable.
    document.execCommand(command, false);
    if (area.current) onChange(area.current.innerHTML);
  };

  return (
    <div className="compose-editor" style={{ border: '1px solid #d9d9d9', borderRadius: 6 }}>
      <Space size={2} style={{ padding: 4, borderBottom: '1px solid #f0f0f0', width: '100%' }} wrap>
        {commands().map((item) => (
          <Tooltip key={item.command} title={item.label}>
            <Button
              type="text"
              size="small"
              icon={item.icon}
              aria-label={item.label}
              // Keep the selection in the editor while the button is pressed.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(item.command)}
            />
          </Tooltip>
        ))}
      </Space>
      {/* biome-ignore lint/a11y/useSemanticElements: a rich-text area has no semantic element */}
      <div
        ref={area}
        role="textbox"
        aria-multiline="true"
        aria-label={label}
        tabIndex={0}
        contentEditable
        suppressContentEditableWarning
        onInput={(event) => onChange(event.currentTarget.innerHTML)}
        style={{ minHeight: 220, maxHeight: 420, overflowY: 'auto', padding: '8px 12px', outline: 'none' }}
      />
    </div>
  );
}
