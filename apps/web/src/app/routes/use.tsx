import { Card, Space, Steps, Typography } from 'antd';
import { Link } from 'react-router-dom';
import { paths } from '../../config/routes';
import { CurlExamples } from '../../features/api-key/components/curl-examples';
import { t } from '../../lib/i18n';
import { rich } from '../../lib/i18n/rich';
import { useSettingsStore } from '../../state/settings';

/** The steps, in the current language (built at render, never at import). */
const steps = () => [
  {
    title: t('注册或登录'),
    content: t(
      '在登录页选择“注册邮箱”，挑一个开放注册的域名；已有邮箱用“邮箱登录”，系统账号用“系统账号登录”。',
    ),
  },
  {
    title: t('临时邮箱与正式邮箱'),
    content: t(
      '注册时不设密码得到的是临时邮箱，只能在本浏览器通过登录凭证进入，到期自动删除；设了密码的邮箱可以随时用地址和密码登录。',
    ),
  },
  {
    title: t('收取邮件'),
    content: t('登录后进入“收件箱”，发到你邮箱地址的邮件会出现在那里。'),
  },
  {
    title: t('管理账号'),
    content: t('管理员在“系统账号”中创建账号、设置角色和可用的域名与邮箱数量，也可以停用或删除账号。'),
  },
];

const { Paragraph, Text, Title } = Typography;

/** The open API calls (under /api/open, authorised by the X-API-Key header); the key itself is shown on the interface screen. */
const openApiCalls = () =>
  [
    ['POST /api/open/createEmail', t('创建一个邮箱地址，可指定域名和前缀，不指定则随机生成')],
    [t('GET /api/open/getInbox?address=地址'), t('分页列出该地址收到的邮件')],
    [t('GET /api/open/getEmail?id=编号'), t('读取一封邮件的正文和附件信息')],
    [
      t('GET /api/open/waitEmail?address=地址&timeout=秒数'),
      t('等待下一封新邮件（1 到 60 秒），超时返回错误码 408'),
    ],
    ['POST /api/open/delEmail', t('删除邮件')],
  ] as const;

/** How to use the service: registration, temporary mailboxes, buying, cards, mailbox login, open API. */
export function Component() {
  const retentionDays = useSettingsStore((state) => state.settings.retentionDays);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Card title={t('使用说明')}>
        <Steps orientation="vertical" current={-1} items={steps()} />
        {retentionDays ? (
          <Paragraph type="secondary" style={{ marginTop: 16, marginBottom: 0 }}>
            {t('本站邮件保留 {days} 天，超过期限的邮件会被自动清理。', { days: retentionDays })}
          </Paragraph>
        ) : null}
      </Card>
      <Card title={t('临时邮箱')}>
        <Paragraph>
          {t(
            '在首页或登录页的“注册邮箱”中选择一个开放注册的域名，不设置密码即可立即得到一个临时邮箱，适合接收验证码、注册确认等一次性邮件。',
          )}
        </Paragraph>
        <Paragraph style={{ marginBottom: 0 }}>
          {t(
            '临时邮箱只能在当前浏览器中使用，到期后连同邮件一起删除；需要长期使用请设置密码，或购买正式邮箱。',
          )}
        </Paragraph>
      </Card>
      <Card title={t('购买邮箱')}>
        <Paragraph>
          {rich(
            t(
              '打开{store}，选择在售的域名，输入想要的邮箱前缀（输入时会立即提示是否可用）、登录密码和手机号，选择支付方式后提交订单。',
            ),
            { store: <Link to={paths.store}>{t('商店')}</Link> },
          )}
        </Paragraph>
        <Paragraph>
          {t(
            '选择在线支付会跳转到支付页面，付款成功后邮箱自动开通；选择人工确认付款时，页面会显示订单号和付款说明，站点确认收款后邮箱开通。未付款的订单会在一段时间后自动过期，预留的地址随之释放。',
          )}
        </Paragraph>
        <Paragraph style={{ marginBottom: 0 }}>
          {t(
            '在商店的“查询订单”中输入下单手机号，可以看到每个订单的状态；邮箱开通后，这里会显示邮箱地址。为防止滥用，查询次数有限制。',
          )}
        </Paragraph>
      </Card>
      <Card title={t('卡密兑换')}>
        <Paragraph>
          {rich(
            t(
              '卡密形如 {sample}，输入时不区分大小写，空格和短横线可有可无。在{store}的“兑换卡密”中填写卡密、邮箱前缀和密码：',
            ),
            {
              sample: <Text code>YJ-XXXX-XXXX-XXXX-XXXX</Text>,
              store: <Link to={paths.store}>{t('商店')}</Link>,
            },
          )}
        </Paragraph>
        <ul>
          <li>{t('前缀未被占用时，新开一个邮箱，有效期和容量按卡密的设定；')}</li>
          <li>
            {t(
              '前缀是你已有的邮箱时，填写该邮箱的密码，卡密的天数会加到它的有效期上（已过期的从兑换时算起）。',
            )}
          </li>
        </ul>
        <Paragraph style={{ marginBottom: 0 }}>
          {t(
            '每个卡密只能使用一次；多次输错卡密会被暂时禁止兑换。站点运营者在“卡密管理”中成批生成卡密，可复制或导出后发放。',
          )}
        </Paragraph>
      </Card>
      <Card title={t('用邮箱登录')}>
        <Paragraph style={{ marginBottom: 0 }}>
          {rich(
            t(
              '在{login}选择“邮箱登录”，输入完整的邮箱地址和密码。登录后可以查看收件箱和已发送的邮件，并在“设置”中修改密码（修改后其他设备上的登录会失效）。已停用或已过期的邮箱无法登录，也不再收信，续期后即可恢复。',
            ),
            { login: <Link to={paths.auth}>{t('登录页')}</Link> },
          )}
        </Paragraph>
      </Card>
      <Card title={t('开放接口')}>
        <Paragraph>
          {rich(
            t(
              '程序可以通过开放接口创建邮箱、读取邮件、等待新邮件，适合自动化测试和注册流程。调用时在请求头{header} 中带上你的接口密钥，返回格式与网页使用的接口相同：{envelope}，{error} 为 0 表示成功。',
            ),
            {
              header: <Text code>X-API-Key</Text>,
              envelope: <Text code>{'{ error, msg, data }'}</Text>,
              error: <Text code>error</Text>,
            },
          )}
        </Paragraph>
        <Title level={5}>{t('主要接口')}</Title>
        <ul>
          {openApiCalls().map(([call, text]) => (
            <li key={call}>
              <Text code>{call}</Text>
              {t('：')}
              {text}
            </li>
          ))}
        </ul>
        <Paragraph style={{ marginBottom: 0 }}>
          {rich(
            t(
              '完整的接口说明（机器可读格式）位于 {spec}。接口密钥由系统账号在用户中心的“接口”页面获取和重置，那里的示例会直接带上你的密钥和域名。',
            ),
            { spec: <Text code>/api/openapi.json</Text> },
          )}
        </Paragraph>
      </Card>
      <Card title={t('接口调用示例')}>
        <CurlExamples baseUrl={window.location.origin} />
      </Card>
    </Space>
  );
}
