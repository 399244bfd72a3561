import { Card, Space, Steps, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { paths } from '../../config/routes';
import { CurlExamples } from '../../features/api-key/components/curl-examples';
import { useSettingsStore } from '../../state/settings';

const steps = [
  {
    title: '注册或登录',
    content: '在登录页选择“注册邮箱”，挑一个开放注册的域名；已有邮箱用“邮箱登录”，系统账号用“系统账号登录”。',
  },
  {
    title: '临时邮箱与正式邮箱',
    content:
      '注册时不设密码得到的是临时邮箱，只能在本浏览器通过登录凭证进入，到期自动删除；设了密码的邮箱可以随时用地址和密码登录。',
  },
  {
    title: '收取邮件',
    content: '登录后进入“收件箱”，发到你邮箱地址的邮件会出现在那里。',
  },
  {
    title: '管理账号',
    content: '管理员在“系统账号”中创建账号、设置角色和可用的域名与邮箱数量，也可以停用或删除账号。',
  },
];

const { Paragraph, Text, Title } = Typography;

/** The open API calls (under /api/open, authorised by the X-API-Key header); the key itself is shown on the interface screen. */
const openApiCalls = [
  ['POST /api/open/createEmail', '创建一个邮箱地址，可指定域名和前缀，不指定则随机生成'],
  ['GET /api/open/getInbox?address=地址', '分页列出该地址收到的邮件'],
  ['GET /api/open/getEmail?id=编号', '读取一封邮件的正文和附件信息'],
  ['GET /api/open/waitEmail?address=地址&timeout=秒数', '等待下一封新邮件（1 到 60 秒），超时返回错误码 408'],
  ['POST /api/open/delEmail', '删除邮件'],
] as const;

/** How to use the service: registration, temporary mailboxes, buying, cards, mailbox login, open API. */
export function Component() {
  const retentionDays = useSettingsStore((state) => state.settings.retentionDays);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title="使用说明">
        <Steps orientation="vertical" current={-1} items={steps} />
        {retentionDays ? (
          <Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
            本站邮件保留 {retentionDays} 天，超过期限的邮件会被自动清理。
          </Paragraph>
        ) : null}
      </Card>
      <Card title="临时邮箱">
        <Paragraph>
          在首页或登录页的“注册邮箱”中选择一个开放注册的域名，不设置密码即可立即得到一个临时邮箱，适合接收验证码、注册确认等一次性邮件。
        </Paragraph>
        <Paragraph style={{ marginBottom: 0 }}>
          临时邮箱只能在当前浏览器中使用，到期后连同邮件一起删除；需要长期使用请设置密码，或购买正式邮箱。
        </Paragraph>
      </Card>
      <Card title="购买邮箱">
        <Paragraph>
          打开<Link to={paths.store}>商店</Link>
          ，选择在售的域名，输入想要的邮箱前缀（输入时会立即提示是否可用）、登录密码和手机号，选择支付方式后提交订单。
        </Paragraph>
        <Paragraph>
          选择在线支付会跳转到支付页面，付款成功后邮箱自动开通；选择人工确认付款时，页面会显示订单号和付款说明，站点确认收款后邮箱开通。未付款的订单会在一段时间后自动过期，预留的地址随之释放。
        </Paragraph>
        <Paragraph style={{ marginBottom: 0 }}>
          在商店的“查询订单”中输入下单手机号，可以看到每个订单的状态；邮箱开通后，这里会显示邮箱地址。为防止滥用，查询次数有限制。
        </Paragraph>
      </Card>
      <Card title="卡密兑换">
        <Paragraph>
          卡密形如 <Text code>YJ-XXXX-XXXX-XXXX-XXXX</Text>，输入时不区分大小写，空格和短横线可有可无。在
          <Link to={paths.store}>商店</Link>的“兑换卡密”中填写卡密、邮箱前缀和密码：
        </Paragraph>
        <ul>
          <li>前缀未被占用时，新开一个邮箱，有效期和容量按卡密的设定；</li>
          <li>
            前缀是你已有的邮箱时，填写该邮箱的密码，卡密的天数会加到它的有效期上（已过期的从兑换时算起）。
          </li>
        </ul>
        <Paragraph style={{ marginBottom: 0 }}>
          每个卡密只能使用一次；多次输错卡密会被暂时禁止兑换。站点运营者在“卡密管理”中成批生成卡密，可复制或导出后发放。
        </Paragraph>
      </Card>
      <Card title="用邮箱登录">
        <Paragraph style={{ marginBottom: 0 }}>
          在<Link to={paths.auth}>登录页</Link>
          选择“邮箱登录”，输入完整的邮箱地址和密码。登录后可以查看收件箱和已发送的邮件，并在“设置”中修改密码（修改后其他设备上的登录会失效）。已停用或已过期的邮箱无法登录，也不再收信，续期后即可恢复。
        </Paragraph>
      </Card>
      <Card title="开放接口">
        <Paragraph>
          程序可以通过开放接口创建邮箱、读取邮件、等待新邮件，适合自动化测试和注册流程。调用时在请求头
          <Text code>X-API-Key</Text> 中带上你的接口密钥，返回格式与网页使用的接口相同：
          <Text code>{'{ error, msg, data }'}</Text>，<Text code>error</Text> 为 0 表示成功。
        </Paragraph>
        <Title level={5}>主要接口</Title>
        <ul>
          {openApiCalls.map(([call, text]) => (
            <li key={call}>
              <Text code>{call}</Text>：{text}
            </li>
          ))}
        </ul>
        <Paragraph style={{ marginBottom: 0 }}>
          完整的接口说明（机器可读格式）位于 <Text code>/api/openapi.json</Text>
          。接口密钥由系统账号在用户中心的“接口”页面获取和重置，那里的示例会直接带上你的密钥和域名。
        </Paragraph>
      </Card>
      <Card title="接口调用示例">
        <CurlExamples baseUrl={window.location.origin} />
      </Card>
    </Space>
  );
}
