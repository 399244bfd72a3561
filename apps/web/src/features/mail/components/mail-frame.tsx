import { PictureOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useMemo, useState } from 'react';
import { useInlineImages } from '../api/get-inline-images';
import { buildMailSrcdoc, MAIL_FRAME_SANDBOX } from './mail-srcdoc';

interface MailFrameProps {
  /** the server-sanitised HTML of the message */
  html: string;
}

/**
 * The message body in a sandboxed frame: no script runs (no allow-scripts), the frame has no access to
 * this page (no allow-same-origin), and its content security policy loads nothing remote until the
 * reader clicks 显示图片. Mount it with the message id as key so that the choice is per message.
 */
export function MailFrame({ html }: MailFrameProps) {
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
          title={`为保护隐私，已阻止加载此邮件中的 ${built.remoteImages} 张远程图片`}
          description="远程图片可能被发件人用来确认你已读信。信任发件人时再显示。"
          action={
            <Button size="small" onClick={() => setShowRemoteImages(true)}>
              显示图片
            </Button>
          }
        />
      ) : null}
      <iframe
        title="邮件正文"
        data-testid="mail-frame"
        sandbox={MAIL_FRAME_SANDBOX}
        referrerPolicy="no-referrer"
        srcDoc={built.srcdoc}
        style={{
          width: '100%',
          height: '60vh',
          minHeight: 320,
          border: '1px solid #f0f0f0',
          borderRadius: 6,
        }}
      />
    </>
  );
}
