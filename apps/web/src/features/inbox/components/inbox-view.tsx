import { InboxOutlined } from '@ant-design/icons';
import { Card, Empty, Typography } from 'antd';

/**
 * The inbox. Reading mail arrives with the mail issue; until then the screen says honestly that there
 * is nothing to show rather than inventing messages.
 */
export function InboxView() {
  return (
    <Card title="收件箱">
      <Empty
        image={<InboxOutlined style={{ fontSize: 64, color: '#bfbfbf' }} />}
        description={
          <>
            <Typography.Paragraph strong>暂无邮件</Typography.Paragraph>
            <Typography.Paragraph type="secondary">
              发送到你的邮箱地址的邮件会出现在这里。
            </Typography.Paragraph>
          </>
        }
      />
    </Card>
  );
}
