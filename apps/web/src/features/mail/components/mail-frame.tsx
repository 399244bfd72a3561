import { PictureOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { t } from '../../../lib/i18n';
import { useInlineImages } from '../api/get-inline-images';
import { buildMailSrcdoc, MAIL_FRAME_SANDBOX } from './mail-srcdoc';

interface MailFrameProps {
  /** the server-sanitised HTML of the message */
  html: string;
}

/** The frame's height before its document is measured, and for a message with (nearly) no body. */
const MIN_FRAME_HEIGHT = 120;
/**
 * The most the frame grows to. A message styled in viewport units (`min-height: 110vh`) would grow
 * with every measurement; from here on such a message, or a truly endless one, scrolls inside.
 */
const MAX_FRAME_HEIGHT = 40_000;

/**
 * The height of the frame's document, measured from this page (the sandbox's allow-same-origin makes
 * the document readable; nothing runs inside it). A ResizeObserver on the document's root follows
 * every change (inline images arriving, a narrower window reflowing the text); a new document
 * (显示图片 rebuilds srcdoc) is observed again once it has loaded.
 */
function useContentHeight(frameRef: RefObject<HTMLIFrameElement | null>): number {
  const [height, setHeight] = useState(MIN_FRAME_HEIGHT);
  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    let observer: ResizeObserver | null = null;
    const measure = () => {
      const root = frame.contentDocument?.documentElement;
      if (!root) return;
      // The root's box is the content's height (its own and the body's padding included). Content
      // that overflows it (floats, positioned boxes) shows as a scroll height beyond the viewport.
      const boxHeight = root.getBoundingClientRect().height;
      const overflow = root.scrollHeight > root.clientHeight ? root.scrollHeight : 0;
      // A wide message scrolls sideways inside the frame: leave room for that scroll bar.
      const scrollBar = Math.max(0, frame.clientHeight - root.clientHeight);
      const next = Math.ceil(Math.max(boxHeight, overflow)) + scrollBar;
      setHeight(Math.min(MAX_FRAME_HEIGHT, Math.max(MIN_FRAME_HEIGHT, next)));
    };
    const observe = () => {
      observer?.disconnect();
      const root = frame.contentDocument?.documentElement;
      if (!root) return;
      observer = new ResizeObserver(measure);
      observer.observe(root);
      measure();
    };
    frame.addEventListener('load', observe);
    observe();
    return () => {
      frame.removeEventListener('load', observe);
      observer?.disconnect();
    };
  }, [frameRef]);
  return height;
}

/**
 * The message body in a sandboxed frame that grows to the message's height: no script runs (no
 * allow-scripts; see MAIL_FRAME_SANDBOX for why allow-same-origin is safe without it), and its content
 * security policy loads nothing remote until the reader clicks 显示图片. Mount it with the message id
 * as key so that the choice is per message.
 */
export function MailFrame({ html }: MailFrameProps) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const height = useContentHeight(frameRef);
  const [showRemoteImages, setShowRemoteImages] = useState(false);
  const inlineUrls = useMemo(
    () => buildMailSrcdoc(html, { showRemoteImages: false }).inlineImageUrls,
    [html],
  );
  const inlineImages = useInlineImages(inlineUrls);
  const built = useMemo(
    () => buildMailSrcdoc(html, { showRemoteImages, inlineImages }),
    [html, showRemoteImages, inlineImages],
  );

  return (
    <>
      {built.remoteImages > 0 && !showRemoteImages ? (
        <Alert
          type="info"
          showIcon
          icon={<PictureOutlined />}
          style={{ marginBottom: 8 }}
          title={t('为保护隐私，已阻止加载此邮件中的 {count} 张远程图片', { count: built.remoteImages })}
          description={t('远程图片可能被发件人用来确认你已读信。信任发件人时再显示。')}
          action={
            <Button size="small" onClick={() => setShowRemoteImages(true)}>
              {t('显示图片')}
            </Button>
          }
        />
      ) : null}
      <iframe
        ref={frameRef}
        title={t('邮件正文')}
        data-testid="mail-frame"
        sandbox={MAIL_FRAME_SANDBOX}
        referrerPolicy="no-referrer"
        srcDoc={built.srcdoc}
        style={{
          display: 'block',
          boxSizing: 'content-box',
          width: 'calc(100% - 2px)',
          height,
          border: '1px solid #f0f0f0',
          borderRadius: 6,
        }}
      />
    </>
  );
}
