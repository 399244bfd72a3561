import type { PaymentSettingsView, SystemSettingsView, UpdateSettingBody } from '@youju/contract';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Switch, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { bytesToMegabytes, megabytesToBytes } from '../../../lib/bytes';
import { showSuccessMessage } from '../../../lib/feedback';
import { t } from '../../../lib/i18n';
import { useUpdateSettings } from '../api/update-settings';

interface FormValues {
  siteName: string;
  announcement: string;
  registrationOpen: boolean;
  storeOpen: boolean;
  defaultDomainId: number | null;
  retentionDays: number;
  junkRetentionDays: number;
  maxMessageMb: number;
  temporaryMailboxHours: number;
  defaultQuotaMb: number;
  relayUrl: string;
  sendPerHour: number;
  sendPerDay: number;
  loginMaxFailuresPerIp: number;
  loginMaxFailuresPerAccount: number;
  loginWindowMinutes: number;
  loginBanMinutes: number;
  anonymousSend: boolean;
  dmarcReject: boolean;
  registerPerIpPerHour: number;
  reservedLocalParts: string[];
  banAllowList: string[];
  backupIntervalHours: number;
  backupKeep: number;
  manualEnabled: boolean;
  manualInstructions: string;
  epayEnabled: boolean;
  epayGatewayUrl: string;
  epayMerchantId: string;
  epayKey: string;
  epayTypes: string[];
  siteUrl: string;
  orderTimeoutMinutes: number;
}

function toForm(system: SystemSettingsView, payment?: PaymentSettingsView): FormValues {
  return {
    siteName: system.siteName,
    announcement: system.announcement,
    registrationOpen: system.registrationOpen,
    storeOpen: system.storeOpen,
    defaultDomainId: system.defaultDomainId,
    retentionDays: system.retentionDays,
    junkRetentionDays: system.junkRetentionDays,
    maxMessageMb: bytesToMegabytes(system.maxMessageBytes),
    temporaryMailboxHours: system.temporaryMailboxHours,
    defaultQuotaMb: bytesToMegabytes(system.defaultQuotaBytes),
    relayUrl: system.relayUrl,
    sendPerHour: system.sendPerHour,
    sendPerDay: system.sendPerDay,
    loginMaxFailuresPerIp: system.loginMaxFailuresPerIp,
    loginMaxFailuresPerAccount: system.loginMaxFailuresPerAccount,
    loginWindowMinutes: system.loginWindowMinutes,
    loginBanMinutes: system.loginBanMinutes,
    anonymousSend: system.anonymousSend,
    dmarcReject: system.dmarcReject,
    registerPerIpPerHour: system.registerPerIpPerHour,
    reservedLocalParts: system.reservedLocalParts,
    banAllowList: system.banAllowList,
    backupIntervalHours: system.backupIntervalHours,
    backupKeep: system.backupKeep,
    manualEnabled: payment?.manualEnabled ?? true,
    manualInstructions: payment?.manualInstructions ?? '',
    epayEnabled: payment?.epayEnabled ?? false,
    epayGatewayUrl: payment?.epayGatewayUrl ?? '',
    epayMerchantId: payment?.epayMerchantId ?? '',
    epayKey: '',
    epayTypes: payment?.epayTypes ?? [],
    siteUrl: payment?.siteUrl ?? '',
    orderTimeoutMinutes: payment?.orderTimeoutMinutes ?? 30,
  };
}

function toBody(values: FormValues, withPayment: boolean): UpdateSettingBody {
  const body: UpdateSettingBody = {
    system: {
      siteName: values.siteName,
      announcement: values.announcement ?? '',
      registrationOpen: values.registrationOpen,
      storeOpen: values.storeOpen,
      defaultDomainId: values.defaultDomainId ?? null,
      retentionDays: values.retentionDays,
      junkRetentionDays: values.junkRetentionDays,
      maxMessageBytes: megabytesToBytes(values.maxMessageMb),
      temporaryMailboxHours: values.temporaryMailboxHours,
      defaultQuotaBytes: megabytesToBytes(values.defaultQuotaMb),
      relayUrl: values.relayUrl?.trim() ?? '',
      sendPerHour: values.sendPerHour,
      sendPerDay: values.sendPerDay,
      loginMaxFailuresPerIp: values.loginMaxFailuresPerIp,
      loginMaxFailuresPerAccount: values.loginMaxFailuresPerAccount,
      loginWindowMinutes: values.loginWindowMinutes,
      loginBanMinutes: values.loginBanMinutes,
      anonymousSend: values.anonymousSend,
      dmarcReject: values.dmarcReject,
      registerPerIpPerHour: values.registerPerIpPerHour,
      reservedLocalParts: (values.reservedLocalParts ?? []).map((entry) => entry.trim()).filter(Boolean),
      banAllowList: (values.banAllowList ?? []).map((entry) => entry.trim()).filter(Boolean),
      backupIntervalHours: values.backupIntervalHours,
      backupKeep: values.backupKeep,
    },
  };
  if (withPayment) {
    body.payment = {
      manualEnabled: values.manualEnabled,
      manualInstructions: values.manualInstructions ?? '',
      epayEnabled: values.epayEnabled,
      epayGatewayUrl: values.epayGatewayUrl?.trim() ?? '',
      epayMerchantId: values.epayMerchantId?.trim() ?? '',
      epayTypes: values.epayTypes ?? [],
      siteUrl: values.siteUrl?.trim() ?? '',
      orderTimeoutMinutes: values.orderTimeoutMinutes,
      // Empty keeps the stored key: the key is write-only.
      ...(values.epayKey?.trim() ? { epayKey: values.epayKey.trim() } : {}),
    };
  }
  return body;
}

const required = (label: string) => ({ required: true, message: t('请填写{label}', { label }) });

function NumberField({
  name,
  label,
  min,
  max,
  extra,
  addon,
  step,
}: {
  name: keyof FormValues;
  label: string;
  min: number;
  max: number;
  extra?: string;
  addon?: string;
  step?: number;
}) {
  return (
    <Form.Item
      name={name}
      label={label}
      extra={extra}
      rules={[
        required(label),
        { type: 'number', min, max, message: t('{label}应在 {min} 到 {max} 之间', { label, min, max }) },
      ]}
    >
      <InputNumber min={min} max={max} step={step ?? 1} style={{ width: '100%' }} suffix={addon} />
    </Form.Item>
  );
}

/** System settings for administrators, applied at once without a restart. */
export function SystemSettingsForm({
  system,
  payment,
  domains,
}: {
  system: SystemSettingsView;
  payment?: PaymentSettingsView;
  domains: { id: number; name: string }[];
}) {
  const [form] = Form.useForm<FormValues>();
  const initial = useMemo(() => toForm(system, payment), [system, payment]);
  useEffect(() => form.setFieldsValue(initial), [form, initial]);
  const mutation = useUpdateSettings(() => {
    form.setFieldValue('epayKey', '');
    showSuccessMessage(t('系统设置已保存，立即生效'));
  });

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      name="system-settings-form"
      initialValues={initial}
      onFinish={(values) => mutation.mutate(toBody(values, payment !== undefined))}
      scrollToFirstError
    >
      <Card title={t('站点')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="siteName"
              label={t('站点名称')}
              rules={[
                required(t('站点名称')),
                { whitespace: true, message: t('站点名称不能为空') },
                { max: 60, message: t('站点名称最多 60 个字符') },
              ]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="defaultDomainId"
              label={t('默认域名')}
              extra={t('一键临时邮箱和开放接口默认使用的域名')}
            >
              <Select
                allowClear
                placeholder={t('不指定')}
                options={domains.map((domain) => ({ value: domain.id, label: domain.name }))}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="announcement"
          label={t('公告')}
          extra={t('显示在首页顶部；留空则不显示')}
          rules={[{ max: 2000, message: t('公告最多 2000 个字符') }]}
        >
          <Input.TextArea rows={3} />
        </Form.Item>
        <Row gutter={16}>
          <Col>
            <Form.Item name="registrationOpen" label={t('开放注册')} valuePropName="checked">
              <Switch checkedChildren={t('开')} unCheckedChildren={t('关')} />
            </Form.Item>
          </Col>
          <Col>
            <Form.Item name="storeOpen" label={t('开放商店')} valuePropName="checked">
              <Switch checkedChildren={t('开')} unCheckedChildren={t('关')} />
            </Form.Item>
          </Col>
        </Row>
      </Card>

      <Card title={t('邮件与邮箱')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <NumberField name="retentionDays" label={t('邮件保留天数')} min={1} max={3650} addon={t('天')} />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="junkRetentionDays"
              label={t('垃圾邮件保留天数')}
              min={0}
              max={3650}
              addon={t('天')}
              extra={t('垃圾邮件更早清理；0 表示与其他邮件相同')}
            />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="maxMessageMb"
              label={t('单封邮件大小上限')}
              min={0.01}
              max={200}
              step={1}
              addon="MB"
            />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="temporaryMailboxHours"
              label={t('临时邮箱有效时长')}
              min={1}
              max={8760}
              addon={t('小时')}
            />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="defaultQuotaMb"
              label={t('默认邮箱容量')}
              min={0}
              max={1048576}
              addon="MB"
              extra={t('0 表示不限')}
            />
          </Col>
        </Row>
      </Card>

      <Card title={t('发信')} style={{ marginBottom: 16 }}>
        <Form.Item
          name="relayUrl"
          label={t('外发中继地址')}
          extra={
            system.relayPasswordSet
              ? t('密码已保存并打码显示；保持原样提交不会改变密码。留空则直接投递到收件方的邮件服务器。')
              : t(
                  '形如 smtp://用户名:密码@smtp.example.com:587 或 smtps://…:465；留空则直接投递到收件方的邮件服务器。',
                )
          }
          rules={[
            { pattern: /^(smtps?:\/\/\S+)?$/, message: t('外发中继地址必须以 smtp:// 或 smtps:// 开头') },
          ]}
        >
          <Input placeholder={t('留空则直接投递')} autoComplete="off" />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <NumberField
              name="sendPerHour"
              label={t('每小时发信上限')}
              min={0}
              max={1000000}
              addon={t('封')}
              extra={t('每个账号；0 表示不限')}
            />
          </Col>
          <Col xs={24} md={12}>
            <NumberField
              name="sendPerDay"
              label={t('每天发信上限')}
              min={0}
              max={10000000}
              addon={t('封')}
              extra={t('每个账号；0 表示不限')}
            />
          </Col>
        </Row>
      </Card>

      <Card title={t('防滥用')} style={{ marginBottom: 16 }}>
        <Form.Item
          name="anonymousSend"
          label={t('临时邮箱可向外部发信')}
          valuePropName="checked"
          extra={t(
            '关闭时（推荐），一键临时邮箱和访客自助注册的邮箱只能发信给本站域名的地址，防止被用来群发垃圾邮件',
          )}
        >
          <Switch />
        </Form.Item>
        <Form.Item
          name="dmarcReject"
          label={t('拒收 DMARC 要求拒收的伪造邮件')}
          valuePropName="checked"
          extra={t(
            '发件域的 DMARC 策略为 reject 且 SPF、DKIM 都未通过对齐验证时，在 SMTP 阶段以 550 5.7.1 拒收；关闭后这类邮件进入垃圾邮件',
          )}
        >
          <Switch />
        </Form.Item>
        <NumberField
          name="registerPerIpPerHour"
          label={t('每个 IP 每小时注册上限')}
          min={0}
          max={100000}
          addon={t('个')}
          extra={t('注册邮箱、商店下单、兑换卡密合计；0 表示不限')}
        />
        <Form.Item
          name="reservedLocalParts"
          label={t('额外保留的邮箱前缀')}
          extra={t('admin、postmaster 等管理地址始终保留，只有域名所有者能创建；可在此再添加，输入后回车')}
        >
          <Select mode="tags" tokenSeparators={[',', ' ']} placeholder={t('例如 billing')} open={false} />
        </Form.Item>
        <Form.Item
          name="banAllowList"
          label={t('永不自动封禁的 IP')}
          extra={t('自己的办公网络或监控服务器（IP 或 CIDR 网段）；本机和 127.0.0.1 本来就不会被封禁')}
        >
          <Select
            mode="tags"
            tokenSeparators={[',', ' ']}
            placeholder={t('例如 203.0.113.0/24')}
            open={false}
          />
        </Form.Item>
      </Card>

      <Card title={t('登录保护')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <NumberField
              name="loginMaxFailuresPerIp"
              label={t('单个 IP 登录失败上限')}
              min={1}
              max={10000}
              addon={t('次')}
            />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="loginMaxFailuresPerAccount"
              label={t('单个账号登录失败上限')}
              min={1}
              max={1000}
              addon={t('次')}
            />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="loginWindowMinutes"
              label={t('登录失败统计时长')}
              min={1}
              max={1440}
              addon={t('分钟')}
            />
          </Col>
          <Col xs={24} md={6}>
            <NumberField
              name="loginBanMinutes"
              label={t('自动封禁时长')}
              min={0}
              max={525600}
              addon={t('分钟')}
              extra={t('同一 IP 失败达到上限后加入黑名单；0 表示不自动封禁')}
            />
          </Col>
        </Row>
      </Card>

      <Card title={t('备份')} style={{ marginBottom: 16 }}>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <NumberField
              name="backupIntervalHours"
              label={t('自动备份间隔')}
              min={0}
              max={720}
              addon={t('小时')}
              extra={t('每台服务器把备份写入自己数据目录下的 backups 文件夹；0 表示不自动备份')}
            />
          </Col>
          <Col xs={24} md={12}>
            <NumberField
              name="backupKeep"
              label={t('保留份数')}
              min={1}
              max={365}
              addon={t('份')}
              extra={t('超出的最旧备份会被删除')}
            />
          </Col>
        </Row>
      </Card>

      {payment ? (
        <Card title={t('支付')} id="payment" style={{ marginBottom: 16, scrollMarginTop: 80 }}>
          <Typography.Paragraph type="secondary">
            {t(
              '商店的全部收款设置都在这里：人工确认收款（买家线下付款，域名所有者或管理员在“卡密管理 → 订单”中确认收款后开通邮箱）和易支付在线收款。',
            )}
          </Typography.Paragraph>
          <Row gutter={16}>
            <Col>
              <Form.Item name="manualEnabled" label={t('人工确认收款')} valuePropName="checked">
                <Switch checkedChildren={t('开')} unCheckedChildren={t('关')} />
              </Form.Item>
            </Col>
            <Col>
              <Form.Item name="epayEnabled" label={t('易支付')} valuePropName="checked">
                <Switch checkedChildren={t('开')} unCheckedChildren={t('关')} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="manualInstructions"
            label={t('人工付款说明')}
            rules={[{ max: 1000, message: t('人工付款说明最多 1000 个字符') }]}
          >
            <Input.TextArea rows={2} />
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="epayGatewayUrl"
                label={t('易支付网关地址')}
                rules={[
                  {
                    pattern: /^(https?:\/\/\S+)?$/,
                    message: t('易支付网关地址必须以 http:// 或 https:// 开头'),
                  },
                ]}
              >
                <Input placeholder="https://pay.example.com" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="epayMerchantId"
                label={t('易支付商户号')}
                rules={[{ max: 64, message: t('商户号最多 64 个字符') }]}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="epayKey"
                label={t('易支付密钥')}
                extra={
                  payment.epayKeySet
                    ? t('已设置（{epayKeyMasked}）；留空则保持不变', { epayKeyMasked: payment.epayKeyMasked })
                    : t('尚未设置')
                }
                rules={[{ max: 200, message: t('密钥最多 200 个字符') }]}
              >
                <Input.Password
                  placeholder={payment.epayKeySet ? payment.epayKeyMasked : t('填写商户密钥')}
                  autoComplete="new-password"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="epayTypes" label={t('支付方式')} extra={t('如 alipay、wxpay、qqpay')}>
                <Select mode="tags" tokenSeparators={[',', ' ']} placeholder={t('输入后回车')} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="siteUrl"
                label={t('站点地址')}
                extra={t('支付回调使用；留空则按访问地址')}
                rules={[
                  { pattern: /^(https?:\/\/\S+)?$/, message: t('站点地址必须以 http:// 或 https:// 开头') },
                ]}
              >
                <Input placeholder="https://mail.example.com" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <NumberField
                name="orderTimeoutMinutes"
                label={t('订单有效分钟数')}
                min={5}
                max={1440}
                addon={t('分钟')}
              />
            </Col>
          </Row>
        </Card>
      ) : null}

      <Typography.Paragraph type="secondary">{t('保存后立即生效，无需重启服务。')}</Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={mutation.isPending}>
        {t('保存系统设置')}
      </Button>
    </Form>
  );
}
