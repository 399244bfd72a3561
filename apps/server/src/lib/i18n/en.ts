/**
 * The API's messages in English, keyed by their Chinese text (see index.ts): `{}` stands for a
 * value filled in at run time, in the same order in both languages. A value is looked up in turn,
 * so a field's label, a provider's name or a part of a built text has its own entry.
 */
export const ENGLISH: Readonly<Record<string, string>> = {
  // --- envelope (plugins/error-handling.ts, plugins/web-client.ts, app.ts)
  '请求体不是有效的 JSON，请检查格式': 'The request body is not valid JSON; check its format',
  '请求体为空，请提交 JSON 数据': 'The request body is empty; send JSON data',
  '请求体过大，请减小提交的内容': 'The request body is too large; send less',
  '不支持的内容类型，请以 JSON（application/json）提交':
    'Unsupported content type; send JSON (application/json)',
  请求长度与内容不符: 'The request length does not match its content',
  '请求地址中的参数格式不正确或过长，请检查后重试':
    'A parameter in the request address is malformed or too long; check it and try again',
  '接口不存在：{}': 'No such API call: {}',
  '接口不存在：{} {}': 'No such API call: {} {}',
  '文件不存在：{}': 'No such file: {}',
  '数据库暂时无法连接，操作没有完成；服务会自动重连，请稍后重试，问题持续时请联系站点管理员':
    'The database cannot be reached right now and the operation did not complete; the service reconnects by itself. Try again shortly, and contact the site administrator if it persists',

  // --- the contract's default messages (packages/contract/src/errors.ts)
  '登录状态已过期，请先登录': 'Your session has expired; please log in',
  '请求参数有误，请检查后重试': 'The request has invalid parameters; check them and try again',
  没有权限执行此操作: 'You are not allowed to do this',
  请求的内容不存在: 'The requested item does not exist',
  '等待超时，请稍后重试': 'Timed out waiting; try again later',
  内容已存在或已被使用: 'It already exists or is already in use',
  '内容过大，请减小后重试': 'Too large; make it smaller and try again',
  '操作过于频繁，请稍后再试': 'Too many requests; try again later',
  '服务器内部错误，请稍后再试': 'Internal server error; try again later',
  '服务暂时不可用，请稍后再试': 'The service is temporarily unavailable; try again later',
  '服务器存储空间已满，操作没有完成，数据未改动；请稍后再试，或联系站点管理员清理空间':
    'The server’s storage is full: the operation did not complete and nothing was changed. Try again later, or ask the site administrator to free some space',

  // --- validation (plugins/validation.ts)
  '{} 含有不允许的空字符（\\u0000），请删除后重试':
    '{} contains a NUL character (\\u0000), which is not allowed; remove it and try again',
  请求: 'The request',
  字段名: 'A field name',
  '{}（{}）': '{} ({})',
  请求参数有误: 'The request has invalid parameters',
  '缺少参数：{}': 'Missing parameter: {}',
  '请求体必须是 JSON 对象': 'The request body must be a JSON object',
  '参数 {} 类型不正确，应为{}': 'Parameter {} has the wrong type; it must be {}',
  '参数 {} 至少需要 {} 个字符': 'Parameter {} needs at least {} characters',
  '参数 {} 最多 {} 个字符': 'Parameter {} allows at most {} characters',
  '参数 {} 不能小于 {}': 'Parameter {} must not be less than {}',
  '参数 {} 不能大于 {}': 'Parameter {} must not be greater than {}',
  '参数 {} 至少需要 {} 项': 'Parameter {} needs at least {} items',
  '参数 {} 最多 {} 项': 'Parameter {} allows at most {} items',
  '参数 {} 格式不正确': 'Parameter {} is malformed',
  '参数 {} 的值不正确': 'Parameter {} has an invalid value',
  '参数 {} 不是有效的时间': 'Parameter {} is not a valid time',
  文本: 'text',
  整数: 'an integer',
  数字: 'a number',
  '布尔值（true/false）': 'a boolean (true/false)',
  数组: 'an array',
  对象: 'an object',
  '{}或{}': '{} or {}',
  '{}、{}': '{}, {}',

  // --- field labels (packages/contract/src/field-labels.ts)
  用户名: 'Username',
  密码: 'Password',
  原密码: 'Current password',
  新密码: 'New password',
  初始化令牌: 'Setup token',
  邮箱地址: 'Email address',
  域名: 'Domain',
  邮箱前缀: 'Mailbox name',
  名称: 'Name',
  编号: 'ID',
  编号列表: 'IDs',
  角色: 'Role',
  启用状态: 'Enabled',
  域名数量上限: 'Domain limit',
  邮箱数量上限: 'Mailbox limit',
  开放注册: 'Open registration',
  出售: 'For sale',
  价格: 'Price',
  页码: 'Page',
  每页条数: 'Page size',
  手机号: 'Phone number',
  卡密: 'Card code',
  支付方式: 'Payment method',
  搜索内容: 'Search text',
  'IP 地址': 'IP address',
  发件人: 'Sender',
  收件人: 'Recipient',
  抄送: 'Cc',
  密送: 'Bcc',
  主题: 'Subject',
  开始时间: 'Start time',
  结束时间: 'End time',
  容量: 'Quota',
  过期时间: 'Expiry time',
  数量: 'Count',
  有效天数: 'Valid days',
  备注: 'Note',
  状态: 'Status',
  匹配字段: 'Match field',
  匹配方式: 'Match type',
  匹配内容: 'Match value',
  处理方式: 'Action',
  订单号: 'Order number',
  超时时间: 'Timeout',
  回调地址: 'Callback URL',
  签名密钥: 'Signing secret',
  事件: 'Events',
  机器人令牌: 'Bot token',
  聊天编号: 'Chat ID',

  // --- auth, sessions, throttles
  '只有系统账号可以使用 API 密钥': 'Only system accounts can use API keys',
  用户名或密码错误: 'Wrong username or password',
  邮箱地址或密码错误: 'Wrong email address or password',
  '该域名不开放注册，请选择其他域名': 'This domain is not open for registration; choose another domain',
  '生成随机邮箱失败，请重试': 'Could not generate a random mailbox; try again',
  '该邮箱已被停用，请联系管理员': 'This mailbox has been disabled; contact the administrator',
  '该邮箱已过期，请续期后再登录': 'This mailbox has expired; renew it before logging in',
  '系统已经初始化，请直接登录': 'The system is already set up; just log in',
  '初始化令牌不正确：请查看服务器日志或数据目录下的 setup-token 文件':
    'Wrong setup token: see the server log or the setup-token file in the data directory',
  '该账号已被停用，请联系管理员': 'This account has been disabled; contact the administrator',
  本站暂未开放注册: 'Registration is not open on this site',
  请输入原密码: 'Enter your current password',
  原密码不正确: 'The current password is wrong',
  '登录失败次数过多，请 {} 分钟后再试': 'Too many failed logins; try again in {} minutes',
  '该账号在当前网络登录失败次数过多，已临时锁定，请 {} 分钟后再试':
    'Too many failed logins to this account from your network: it is locked for now; try again in {} minutes',
  '该账号近期在陌生网络登录失败次数过多，已临时锁定，请 {} 分钟后再试，或在常用网络登录':
    'Too many recent failed logins to this account from unfamiliar networks: it is locked for now; try again in {} minutes, or log in from a network you usually use',
  '同一网络每小时最多注册或购买 {} 个邮箱，请一小时后再试':
    'At most {} mailboxes can be registered or bought per hour from one network; try again in an hour',
  '不能在这里结束当前会话，请使用“退出登录”': 'The current session cannot be ended here; use “Log out”',
  该会话不存在或已结束: 'This session does not exist or has already ended',

  // --- cards
  卡密不存在: 'No such card code',
  '卡密不正确，请检查后重新输入': 'Wrong card code; check it and enter it again',
  '该卡密已被使用，每个卡密只能兑换一次': 'This card code has been used; each code can be redeemed once',
  '该卡密对应的域名已不存在，请联系卖家': 'The domain of this card code no longer exists; contact the seller',
  '该卡密只能兑换 {} 的邮箱': 'This card code can only be redeemed for a mailbox at {}',
  '该卡密可用于任一开放域名，请选择域名': 'This card code works for any open domain; choose a domain',
  '所选域名不能兑换此卡密，请换一个域名':
    'This card code cannot be redeemed at the chosen domain; choose another',
  '该卡密已被使用，不能再停用或启用': 'This card code has been used and can no longer be disabled or enabled',
  '该卡密刚刚被使用，不能再停用或启用':
    'This card code was just used and can no longer be disabled or enabled',
  '所选卡密中有不存在或无权操作的，未做任何删除':
    'Some of the selected card codes do not exist or are not yours; nothing was deleted',
  该批次不存在或没有卡密: 'This batch does not exist or has no card codes',
  '卡密输入错误次数过多，请 {} 分钟后再试': 'Too many wrong card codes; try again in {} minutes',
  '该卡密已被停用，请联系卖家': 'This card code has been disabled; contact the seller',
  '邮箱 {} 已被占用，请换一个前缀': 'The mailbox {} is taken; choose another name',
  '邮箱 {} 的密码输错次数过多，请 {} 分钟后再试':
    'Too many wrong passwords for the mailbox {}; try again in {} minutes',
  '邮箱 {} 已存在，密码不正确：续期请填写该邮箱的密码，新开邮箱请换一个前缀':
    'The mailbox {} exists and the password is wrong: to renew it enter its password, or choose another name for a new mailbox',
  '该邮箱已被停用，不能续期，请联系管理员':
    'This mailbox has been disabled and cannot be renewed; contact the administrator',
  '该邮箱永久有效，无需续期，卡密未被使用':
    'This mailbox never expires and needs no renewal; the card code was not used',

  // --- certificates, dashboard, health, DKIM
  '未启用 ACME 自动证书（需要设置 ACME_EMAIL），无法立即续期':
    'Automatic ACME certificates are not enabled (ACME_EMAIL must be set), so the certificate cannot be renewed now',
  '立即续期过于频繁，请 {} 分钟后再试（CA 也限制签发次数）':
    'Renewed too often; try again in {} minutes (the CA also limits how many certificates it issues)',
  '证书尚未由 ACME 签发': 'The certificate has not been issued by ACME yet',
  入门清单只对系统账号开放: 'The getting-started checklist is for system accounts only',
  仪表盘只对系统账号开放: 'The dashboard is for system accounts only',
  '无权读取监控指标：请从本机访问，或在 Authorization 头中携带正确的 METRICS_TOKEN':
    'Not allowed to read the metrics: access them from this machine, or send the right METRICS_TOKEN in the Authorization header',
  '无权读取监控指标：只允许从本机访问；如需远程采集，请设置 METRICS_TOKEN 并以 Bearer 方式携带':
    'Not allowed to read the metrics: only this machine may; to collect them remotely, set METRICS_TOKEN and send it as a Bearer token',
  '该域名还没有 DKIM 密钥': 'This domain has no DKIM key yet',
  '选择器 {} 不存在': 'The selector {} does not exist',
  '选择器 {} 是正在使用的签名密钥，不能删除；请先轮换到新密钥':
    'The selector {} is the signing key in use and cannot be deleted; rotate to a new key first',
  'DNS 配置': 'DNS setup',
  投递成功率: 'Delivery success',
  垃圾邮件控制: 'Spam control',
  存储余量: 'Free storage',
  活跃邮箱: 'Active mailboxes',
  邮箱可用率: 'Mailbox availability',

  // --- DNS providers (modules/dns)
  '阿里云 DNS': 'Alibaba Cloud DNS',
  'DNSPod（腾讯云）': 'DNSPod (Tencent Cloud)',
  'AccessKey ID 和 AccessKey Secret': 'the AccessKey ID and AccessKey Secret',
  'SecretId 和 SecretKey': 'the SecretId and SecretKey',
  'API 令牌（API Token）': 'the API token',
  '该密钥（RAM 用户）是否有云解析 DNS 的管理权限（AliyunDNSFullAccess）':
    'whether the key (RAM user) may manage Alibaba Cloud DNS (AliyunDNSFullAccess)',
  '该密钥（子用户）是否有 DNSPod 的管理权限（QcloudDNSPodFullAccess）':
    'whether the key (sub-user) may manage DNSPod (QcloudDNSPodFullAccess)',
  '令牌是否有该区域的 Zone:Read 和 DNS:Edit 权限':
    'whether the token has the Zone:Read and DNS:Edit permissions for the zone',
  '（{}）': ' ({})',
  '：{}': ': {}',
  '{} 拒绝了访问密钥{}：请检查 {} 是否正确、是否已停用，以及{}；本机时间也须准确':
    '{} refused the access key{}: check {} (correct and not disabled), and check {}; this machine’s clock must also be accurate',
  '在 {} 账户中找不到域名（区域）{}{}：请先在 {} 控制台添加该域名，或检查“区域”是否填写正确':
    'The {} account has no domain (zone) {}{}: add it in the {} console first, or check the “Zone” field',
  '{} 接口调用过于频繁，已被限流{}，请稍后再试': 'Too many calls to the {} API: throttled{}; try again later',
  '{} 接口在 {} 秒内没有应答，请稍后再试': 'The {} API did not answer within {} seconds; try again later',
  '无法连接 {} 接口{}，请检查服务器的网络和 DNS 设置后重试':
    'Cannot reach the {} API{}; check the server’s network and DNS settings and try again',
  '{} 接口返回了无法识别的应答{}，请稍后再试':
    'The {} API gave an answer we do not understand{}; try again later',
  '{} 拒绝了请求{}{}，请在 {} 控制台检查该域名的解析设置':
    '{} refused the request{}{}; check the domain’s DNS settings in the {} console',
  '应答超过 {} 字节': 'the answer exceeds {} bytes',
  '{} 不在区域 {} 内': '{} is not in the zone {}',
  'DNS 服务器 {} 没有成功应答更新请求，请检查服务器地址、端口、防火墙（放行 53 端口的 UDP 和 TCP）以及服务器是否在运行':
    'The DNS server {} did not answer the update successfully; check its address and port, the firewall (UDP and TCP port 53 must be open) and that the server is running',
  'DNS 服务器必须是公网地址：本机、内网、链路本地等地址只有管理员可以设置，请填写 DNS 服务商提供的公网服务器地址':
    'The DNS server must have a public address: only an administrator can set a loopback, private or link-local one; enter the public server address your DNS provider gives',
  'DNS 服务器 {} 没有应答，请检查服务器地址、端口以及防火墙是否放行 53 端口（UDP 和 TCP）':
    'The DNS server {} did not answer; check its address and port, and that the firewall allows port 53 (UDP and TCP)',
  '无法连接 DNS 服务器 {}（{}），请检查服务器地址和端口':
    'Cannot connect to the DNS server {} ({}); check its address and port',
  'DNS 服务器不认识 TSIG 密钥“{}”（{}）（BADKEY），请检查密钥名和算法是否与服务器配置一致':
    'The DNS server does not know the TSIG key “{}” ({}) (BADKEY); check that the key name and algorithm match the server’s configuration',
  'TSIG 签名时间与 DNS 服务器相差过大（BADTIME），请校准本机和 DNS 服务器的时间':
    'The TSIG signature time differs too much from the DNS server’s (BADTIME); correct the clocks of this machine and the DNS server',
  'TSIG 签名校验失败（NOTAUTH/BADSIG）：DNS 服务器拒绝了更新，请检查 TSIG 密钥“{}”的密钥内容（secret）是否正确':
    'TSIG signature check failed (NOTAUTH/BADSIG): the DNS server refused the update; check the secret of the TSIG key “{}”',
  'DNS 服务器 {} 的应答没有 TSIG 签名，无法确认更新已被接受，请检查服务器的密钥配置':
    'The answer of the DNS server {} has no TSIG signature, so the update cannot be confirmed; check the server’s key configuration',
  'DNS 服务器 {} 返回了无法识别的应答，请确认它是 DNS 服务器':
    'The DNS server {} gave an answer we do not understand; check that it is a DNS server',
  'DNS 服务器拒绝了对区域 {} 的更新（REFUSED），请在服务器上允许密钥“{}”更新该区域（BIND：update-policy 或 allow-update）':
    'The DNS server refused the update of the zone {} (REFUSED); allow the key “{}” to update the zone on the server (BIND: update-policy or allow-update)',
  'DNS 服务器 {} 不是区域 {} 的权威服务器（NOTAUTH），请填写主服务器地址或检查区域名称':
    'The DNS server {} is not authoritative for the zone {} (NOTAUTH); enter the primary server’s address or check the zone name',
  '要写入的记录不在区域 {} 内（NOTZONE），请检查区域名称':
    'The records to write are not in the zone {} (NOTZONE); check the zone name',
  'DNS 服务器处理更新失败（{}），请查看 DNS 服务器的日志':
    'The DNS server failed to apply the update ({}); see its log',
  '请填写正确的 AccessKey ID（字母和数字），可在阿里云控制台“AccessKey 管理”中创建':
    'Enter a valid AccessKey ID (letters and digits); create one under “AccessKey Management” in the Alibaba Cloud console',
  '请填写正确的 SecretId（字母和数字），可在腾讯云控制台“访问管理 > API 密钥管理”中创建':
    'Enter a valid SecretId (letters and digits); create one under “Cloud Access Management > API Keys” in the Tencent Cloud console',
  '请填写 Cloudflare API 令牌（API Token）': 'Enter a Cloudflare API token',
  '请填写 AccessKey Secret': 'Enter the AccessKey Secret',
  '请填写 SecretKey': 'Enter the SecretKey',
  'API 令牌格式不正确：应为控制台生成的一串字母、数字和符号，不含空格':
    'The API token is malformed: it is the string of letters, digits and symbols the console generated, without spaces',
  '密钥格式不正确：应为控制台生成的一串字母和数字，不含空格':
    'The key is malformed: it is the string of letters and digits the console generated, without spaces',
  '区域（zone）必须是 {} 本身或它的上级域名': 'The zone must be {} itself or a parent domain of it',
  'DNS 服务器地址格式不正确，请填写 IP 或 IP:端口，例如 203.0.113.53 或 203.0.113.53:53':
    'The DNS server address is malformed; enter an IP or IP:port, such as 203.0.113.53 or 203.0.113.53:53',
  'TSIG 密钥名格式不正确，请填写 DNS 服务器上配置的密钥名，例如 youju-update':
    'The TSIG key name is malformed; enter the key name configured on the DNS server, such as youju-update',
  '不支持的 TSIG 算法': 'Unsupported TSIG algorithm',
  'TSIG 密钥（secret）必须是 base64 编码、至少 16 字节，可用 tsig-keygen 生成':
    'The TSIG secret must be base64 and at least 16 bytes; tsig-keygen can generate one',
  '请填写 TSIG 密钥（secret）': 'Enter the TSIG secret',
  '该域名还没有配置 DNS 服务商，请先在“DNS 服务商”中选择服务商（RFC 2136、阿里云 DNS、DNSPod 或 Cloudflare）并填写密钥':
    'This domain has no DNS provider yet; first choose one under “DNS provider” (RFC 2136, Alibaba Cloud DNS, DNSPod or Cloudflare) and enter its key',
  'DNS 服务器地址格式不正确，请重新设置 DNS 服务商':
    'The DNS server address is malformed; set up the DNS provider again',
  'DNS 服务器（{}）在 {} 秒内没有应答': 'The DNS server ({}) did not answer within {} seconds',
  'DNS 服务器（{}）拒绝连接，没有应答': 'The DNS server ({}) refused the connection and did not answer',
  '查询超时：DNS 服务器（{}）没有应答': 'Query timed out: the DNS server ({}) did not answer',
  'DNS 查询失败（{}）': 'DNS query failed ({})',

  // --- domains
  '价格：出售邮箱必须设置大于 0 的价格（单位：分，如 1000 表示 ¥10.00）':
    'Price: mailboxes for sale need a price above 0 (in fen: 1000 means ¥10.00)',
  '出售：该域名同时允许免费注册，购买将没有意义；请关闭“开放注册”或取消出售，确需同时开启请勾选确认（confirmFreeAndSale）':
    'For sale: this domain also allows free registration, so buying would be pointless; turn off “Open registration” or stop selling, or tick the confirmation (confirmFreeAndSale) if you really want both',
  域名不存在: 'No such domain',
  '域名格式不正确，请填写如 mail.example.com 的完整域名（支持中文域名）':
    'The domain is malformed; enter a full domain name such as mail.example.com (internationalized names are supported)',
  '域名 {} 已被添加，不能重复添加': 'The domain {} has already been added',
  '{} 与其他账号的域名 {} 重叠（上级或下级域名），不能添加；如确属于你，请联系管理员':
    '{} overlaps another account’s domain {} (a parent or subdomain) and cannot be added; if it really is yours, contact the administrator',
  '已达到域名数量上限（{} 个），请联系管理员调整':
    'You have reached the domain limit ({}); ask the administrator to raise it',
  '验证过于频繁：每小时最多验证 {} 次，DNS 记录生效后再试':
    'Verified too often: at most {} times per hour; try again once the DNS record is live',
  '暂时无法查询 {} 的 TXT 记录：{}，请稍后再试':
    'Cannot look up the TXT record of {} right now: {}; try again later',
  '{}，应为“{}”。请在域名的 DNS 中添加这条记录，生效后（通常几分钟）再点击验证':
    '{}; it must be “{}”. Add this record to the domain’s DNS and click Verify once it is live (usually a few minutes)',
  '未找到 {} 的 TXT 记录': 'No TXT record found for {}',
  '{} 的 TXT 记录为 {}': 'The TXT record of {} is {}',
  '“{}”': '“{}”',
  '域名 {} 下还有 {} 个邮箱，删除域名会同时删除这些邮箱及其全部邮件。确认无误请勾选“强制删除”后重试':
    'The domain {} still has {} mailboxes; deleting the domain also deletes them and all their mail. If you are sure, tick “Force delete” and try again',
  '{} 是公共后缀（如 com、co.uk、github.io），不能作为邮件域名，请填写你自己注册的域名':
    '{} is a public suffix (such as com, co.uk or github.io) and cannot be a mail domain; enter a domain you registered yourself',
  '{} 是本站邮件服务器自身的主机名（或其子域名），不能添加':
    '{} is this site’s own mail server host name (or a subdomain of it) and cannot be added',
  '邮箱前缀 {} 是保留的管理地址（如 admin、postmaster），只有域名所有者可以创建，请换一个前缀':
    'The name {} is a reserved administrative address (such as admin or postmaster) that only the domain’s owner can create; choose another name',
  '域名 {} 尚未通过所有权验证，请先在域名管理中添加 TXT 记录并点击“验证”':
    'The domain {} has not passed ownership verification; add the TXT record and click “Verify” under Domains first',

  // --- mailboxes (email accounts)
  邮箱账号不存在: 'No such mailbox',
  '所选邮箱中有不存在或无权操作的账号，未做任何修改':
    'Some of the selected mailboxes do not exist or are not yours; nothing was changed',
  '“设置过期时间”和“延长天数”不能同时使用，请只选一种':
    '“Set expiry time” and “Extend by days” cannot be used together; choose one',
  请至少选择一项要批量修改的内容: 'Choose at least one thing to change',
  'CSV 文件格式不正确：{}': 'The CSV file is malformed: {}',
  'CSV 中有未闭合的引号': 'the CSV has an unclosed quote',
  'CSV 文件中没有数据行': 'The CSV file has no data rows',
  '一次最多导入 {} 行，当前 {} 行，请拆分文件':
    'At most {} rows can be imported at once, this file has {}; split it',
  缺少邮箱地址: 'The email address is missing',
  邮箱地址格式不正确: 'The email address is malformed',
  与文件中前面的行重复: 'Duplicates an earlier row of the file',
  '域名 {} 不存在或不属于你': 'The domain {} does not exist or is not yours',
  '域名 {} 尚未通过所有权验证': 'The domain {} has not passed ownership verification',
  '密码长度应为 6 到 128 位': 'The password must be 6 to 128 characters long',
  '容量“{}”不正确，应填写 MB 数，如 1024': 'The quota “{}” is invalid; enter megabytes, such as 1024',
  '过期时间“{}”不正确，应如 2026-12-31 或 2026-12-31 23:59，留空表示永不过期':
    'The expiry time “{}” is invalid; write it like 2026-12-31 or 2026-12-31 23:59, or leave it empty for never',
  '状态“{}”不正确，应填写 启用 或 停用': 'The status “{}” is invalid; write enabled or disabled',
  '该域名所属账号的邮箱数量已达上限（{} 个），请联系管理员调整':
    'The account that owns this domain has reached its mailbox limit ({}); ask the administrator to raise it',
  '邮箱 {} 已被占用': 'The mailbox {} is taken',
  '邮箱 {} 已被其他订单预留，请换一个前缀':
    'The mailbox {} is reserved by another order; choose another name',
  '已达到邮箱数量上限（{} 个），请删除不用的地址或联系管理员':
    'You have reached the mailbox limit ({}); delete addresses you do not use or contact the administrator',

  // --- filters
  过滤规则不存在: 'No such filter rule',
  '过滤规则已达上限（{} 条），请删除不用的规则后再添加':
    'You have reached the filter rule limit ({}); delete rules you do not use first',
  '正则表达式规则已达上限（{} 条），请合并规则，或改用“包含”“等于”匹配':
    'You have reached the limit of regular-expression rules ({}); merge rules, or match with “contains” or “equals”',
  '正则表达式过长：最多 {} 个字符': 'The regular expression is too long: at most {} characters',
  '正则表达式过于复杂（例如很大的重复次数 {1,1000}），会拖慢收信，请改用更短的重复次数或“包含”匹配':
    'The regular expression is too complex (a large repeat count such as {1,1000}) and would slow down receiving; use smaller repeat counts or a “contains” match',
  '正则表达式使用了不支持的写法（{}）：为保证收信速度，不支持反向引用（如 \\1）和前后断言（如 (?=…)、(?!…)），请改用普通的分组和字符类':
    'The regular expression uses unsupported syntax ({}): to keep receiving fast, backreferences (such as \\1) and lookarounds (such as (?=…) or (?!…)) are not supported; use plain groups and character classes',
  '正则表达式无效（{}），请检查括号、转义和量词':
    'The regular expression is invalid ({}); check its parentheses, escapes and quantifiers',

  // --- firewall
  'IP 地址（ip）格式不正确：请填写单个 IPv4/IPv6 地址，或 CIDR 网段（如 203.0.113.0/24、2001:db8::/32）':
    'The IP address (ip) is malformed: enter one IPv4/IPv6 address or a CIDR range (such as 203.0.113.0/24 or 2001:db8::/32)',
  '到期时间（expiresAt）格式不正确，请使用 ISO 8601 时间或毫秒时间戳':
    'The expiry time (expiresAt) is malformed; use an ISO 8601 time or a timestamp in milliseconds',
  '到期时间（expiresAt）必须晚于现在': 'The expiry time (expiresAt) must be in the future',
  '{} 包含您当前的 IP 地址（{}），封禁后您将无法访问本站。确认要封禁请加上 confirm=1':
    '{} contains your current IP address ({}): once it is blocked you cannot reach this site. Add confirm=1 if you are sure',
  'IP 地址（ip）格式不正确': 'The IP address (ip) is malformed',
  黑名单中没有这个地址: 'This address is not on the blacklist',
  '您所在的网络近期有大量异常请求，已被临时限制访问，请约 {} 分钟后再试':
    'Your network has sent many abnormal requests recently and is blocked for now; try again in about {} minutes',
  '您的 IP 地址已被列入黑名单，暂时无法访问；如有疑问请联系站点管理员':
    'Your IP address is on the blacklist and cannot access the site for now; contact the site administrator if you have questions',
  管理员手动封禁: 'Blocked by an administrator',

  // --- forwarding
  '邮箱不存在，或不在你的管理范围内': 'The mailbox does not exist or is not yours to manage',
  '转发地址格式不正确，请填写完整的外部邮箱地址，例如 name@example.com':
    'The forwarding address is malformed; enter a full external email address, such as name@example.com',
  不能把邮件转发给邮箱自己: 'A mailbox cannot forward mail to itself',
  '转发目标是本站的地址：本站邮箱之间无需转发，请填写站外的邮箱地址':
    'The target is an address on this site: mailboxes here need no forwarding between them; enter an address elsewhere',
  '临时邮箱和自助注册的邮箱只能在本站内收发邮件，不能转发到站外':
    'Temporary and self-registered mailboxes can only exchange mail within this site and cannot forward elsewhere',

  // --- mail
  '服务器实时连接已满，请稍后刷新页面':
    'The server has no room for more live connections; refresh the page later',
  '打开的实时收信连接过多，请关闭多余的页面或标签后再试':
    'Too many live mail connections are open; close extra pages or tabs and try again',
  邮箱地址不存在: 'No such email address',
  附件不存在: 'No such attachment',
  邮件不存在或已被删除: 'The message does not exist or has been deleted',
  '开始时间（start）格式不正确，请使用 ISO 8601 时间或毫秒时间戳':
    'The start time (start) is malformed; use an ISO 8601 time or a timestamp in milliseconds',
  '结束时间（end）格式不正确，请使用 ISO 8601 时间或毫秒时间戳':
    'The end time (end) is malformed; use an ISO 8601 time or a timestamp in milliseconds',
  结束时间不能早于开始时间: 'The end time cannot be before the start time',
  '域名不存在，请先在域名管理中添加': 'No such domain; add it under Domains first',
  '邮箱地址 {} 已被占用，请换一个前缀': 'The address {} is taken; choose another name',
  '生成随机地址失败，请重试': 'Could not generate a random address; try again',

  // --- mail clients
  邮箱用户只能查看自己地址的客户端设置:
    'A mailbox user can only see the client settings of their own address',
  '请提供邮箱地址 address': 'Give the email address (address)',
  '服务器没有开启 IMAP/POP3 或 SMTP 提交端口，无法生成描述文件，请联系管理员':
    'The server has no IMAP/POP3 or SMTP submission port open, so no profile can be generated; contact the administrator',
  '自动配置请求过于频繁，请一分钟后再试': 'Too many autoconfiguration requests; try again in a minute',
  '该地址不存在或不属于你，请从地址列表中选择自己的地址':
    'This address does not exist or is not yours; choose one of your addresses from the list',

  // --- open API
  '邮箱地址不存在，或不属于这个 API 密钥的账号':
    'The email address does not exist or does not belong to this API key’s account',
  '账号下还没有域名，请先在域名管理中添加域名，或传入 domainId':
    'The account has no domain yet; add one under Domains first, or pass domainId',
  '{} 秒内没有收到新邮件，请稍后再试': 'No new mail arrived within {} seconds; try again later',
  '缺少 API 密钥：请在请求头 {} 中提供（在“接口”页面获取）':
    'The API key is missing: send it in the {} header (get it on the “API” page)',
  'API 密钥无效或已被重置，请在“接口”页面获取新的密钥':
    'The API key is invalid or has been reset; get a new key on the “API” page',
  '调用过于频繁：每个密钥每分钟最多 {} 次，请稍后再试':
    'Too many calls: at most {} per key per minute; try again later',
  '同时等待新邮件的请求过多，请等前面的请求返回后再试':
    'Too many requests are waiting for new mail; wait for earlier ones to return and try again',

  // --- orders and payments
  订单不存在: 'No such order',
  '该支付方式暂不可用，请选择其他支付方式': 'This payment method is not available; choose another one',
  '该域名的邮箱暂不出售，请选择其他域名': 'Mailboxes at this domain are not for sale; choose another domain',
  '该域名的邮箱已售完，请选择其他域名': 'Mailboxes at this domain are sold out; choose another domain',
  '该手机号已有 {} 个未支付订单，请先完成支付或等待其过期':
    'This phone number already has {} unpaid orders; pay them first or wait for them to expire',
  '邮箱 {} 刚刚被其他订单预留，请换一个前缀':
    'The mailbox {} was just reserved by another order; choose another name',
  '生成订单号失败，请重试': 'Could not generate an order number; try again',
  '查询过于频繁，请稍后再试': 'Too many lookups; try again later',
  商店暂未开放: 'The store is not open',
  '查询过于频繁，请 {} 分钟后再试': 'Too many lookups; try again in {} minutes',
  '订单已取消，不能再确认收款': 'The order has been cancelled; its payment can no longer be confirmed',
  '订单已付款，不能取消': 'The order has been paid and cannot be cancelled',
  '前缀只能包含字母、数字、点、下划线、加号或短横线，且首尾为字母或数字':
    'The name may contain only letters, digits, dots, underscores, plus signs and hyphens, and must start and end with a letter or digit',
  '{}必须以 http:// 或 https:// 开头': '{} must start with http:// or https://',
  站点地址: 'The site address',
  易支付网关地址: 'The EPay gateway address',
  '启用易支付需要先填写网关地址、商户号和密钥':
    'EPay needs the gateway address, merchant ID and key before it can be enabled',
  启用易支付需要至少选择一种支付方式:
    'EPay needs at least one payment method chosen before it can be enabled',

  // --- sending, drafts, uploads
  '不能以 {} 的名义保存草稿：邮箱用户只能用自己的地址':
    'Cannot save a draft as {}: a mailbox user can only use their own address',
  '发件地址 {} 不是你名下的邮箱，草稿无法保存：草稿保存在发件邮箱的“草稿箱”里，请选择已有邮箱的地址':
    'The sender address {} is not one of your mailboxes, so the draft cannot be saved: drafts are kept in the sending mailbox’s “Drafts” folder; choose the address of an existing mailbox',
  附件不存在或所在草稿已删除: 'The attachment does not exist or its draft has been deleted',
  '附件不存在或所在草稿已删除，请重新添加附件':
    'The attachment does not exist or its draft has been deleted; add the attachment again',
  '草稿过大：编码后不能超过 {}（附件经 Base64 编码后约增大三分之一），请删除部分附件':
    'The draft is too large: encoded it cannot exceed {} (Base64 makes attachments about a third larger); remove some attachments',
  '草稿保存过于频繁：每分钟最多保存 {} 次，请稍后再试':
    'Drafts saved too often: at most {} times per minute; try again later',
  '草稿太多：每个邮箱最多保存 {} 封草稿，请先删除不需要的草稿':
    'Too many drafts: each mailbox keeps at most {}; delete drafts you do not need first',
  '邮箱空间已满，草稿无法保存：请删除一些邮件或联系管理员扩容':
    'The mailbox is full and the draft cannot be saved: delete some mail or ask the administrator for more space',
  邮箱不存在或已被删除: 'The mailbox does not exist or has been deleted',
  '草稿不存在或已被删除（发送后草稿会自动删除）':
    'The draft does not exist or has been deleted (a draft is deleted once it is sent)',
  '请以 multipart/form-data 上传文件（表单字段 file）':
    'Upload the file as multipart/form-data (form field file)',
  '上传内容格式有误，请重新选择文件上传': 'The upload is malformed; choose the file and upload it again',
  '请选择要上传的文件（表单字段 file）': 'Choose a file to upload (form field file)',
  '不能以 {} 的名义发信：邮箱用户只能用自己的地址发件':
    'Cannot send as {}: a mailbox user can only send from their own address',
  '不能以 {} 的名义发信：发件人必须是你名下域名的地址':
    'Cannot send as {}: the sender must be an address at one of your domains',
  '临时邮箱和自助注册的邮箱只能发信给本站域名的地址，不能发送到 {}{}；如需对外发信请使用正式邮箱':
    'Temporary and self-registered mailboxes can only send to addresses at this site’s domains, not to {}{}; use a regular mailbox to send elsewhere',
  '、': ', ',
  ' 等': ' and others',
  '邮件过大：编码后的邮件不能超过 {}（附件经 Base64 编码后约增大三分之一），请减少附件后再发':
    'The message is too large: encoded it cannot exceed {} (Base64 makes attachments about a third larger); remove some attachments and send again',
  '邮件过大：不能超过 {}': 'The message is too large: at most {}',
  请至少填写一个收件人: 'Enter at least one recipient',
  '信头 From 必须是你自己的地址 {}': 'The From header must be your own address {}',
  '邮件是空的：请填写主题、正文或添加附件': 'The message is empty: add a subject, a body or an attachment',
  已发送邮件不存在或已被删除: 'The sent message does not exist or has been deleted',
  '收件人（含抄送、密送）合计不能超过 {} 个': 'At most {} recipients in total (Cc and Bcc included)',
  '发信过于频繁：每小时最多发送 {} 封，请稍后再发':
    'Sending too often: at most {} messages per hour; send later',
  '今天的发信数量已达上限（每天 {} 封），请明天再发':
    'Today’s sending limit is reached ({} per day); send tomorrow',
  '服务器磁盘已满，暂时无法上传附件，请联系管理员':
    'The server’s disk is full and attachments cannot be uploaded for now; contact the administrator',
  '上传没有完成（连接中断或内容不完整），请重新上传':
    'The upload did not complete (the connection broke or the content is incomplete); upload it again',
  '附件不存在或已过期（上传超过 24 小时未发送会被清理），请重新上传':
    'The attachment does not exist or has expired (uploads not sent within 24 hours are removed); upload it again',
  '附件过大：单个文件不能超过 {}（整封邮件也不能超过这个大小），请压缩或拆分后再上传':
    'The attachment is too large: one file cannot exceed {} (nor can the whole message); compress or split it and upload again',

  // --- settings, system accounts
  '外发中继地址（relayUrl）格式不正确，例如 smtp://用户名:密码@smtp.example.com:587':
    'The outgoing relay address (relayUrl) is malformed; for example smtp://user:password@smtp.example.com:587',
  '外发中继地址（relayUrl）必须以 smtp:// 或 smtps:// 开头':
    'The outgoing relay address (relayUrl) must start with smtp:// or smtps://',
  '外发中继地址（relayUrl）缺少服务器地址': 'The outgoing relay address (relayUrl) has no server',
  '外发中继地址（relayUrl）只能包含协议、账号、服务器和端口':
    'The outgoing relay address (relayUrl) may contain only the scheme, account, server and port',
  '外发中继地址（relayUrl）的密码请重新填写':
    'Enter the password of the outgoing relay address (relayUrl) again',
  '站点名称（siteName）不能为空': 'The site name (siteName) cannot be empty',
  '默认域名（defaultDomainId）不存在，请先在域名管理中添加':
    'The default domain (defaultDomainId) does not exist; add it under Domains first',
  '每天发信上限（sendPerDay）不能小于每小时发信上限（sendPerHour）':
    'The daily sending limit (sendPerDay) cannot be less than the hourly one (sendPerHour)',
  只有管理员可以修改系统设置: 'Only administrators can change the system settings',
  支付设置暂不可用: 'Payment settings are not available',
  账号不存在: 'No such account',
  '用户名 {} 已存在，请换一个': 'The username {} already exists; choose another',
  '这是最后一个启用的管理员，不能降级或停用；请先设置另一个管理员':
    'This is the last enabled administrator and cannot be demoted or disabled; make someone else an administrator first',
  不能删除当前登录的账号: 'You cannot delete the account you are logged in with',
  '这是最后一个启用的管理员，不能删除': 'This is the last enabled administrator and cannot be deleted',
  '该账号还拥有 {} 个域名，请先删除这些域名后再删除账号':
    'This account still owns {} domains; delete them before deleting the account',

  // --- webhooks and Telegram
  '只有系统账号可以设置 Webhook 和 Telegram 通知':
    'Only system accounts can set up webhooks and Telegram notifications',
  '回调地址无效，请填写完整的 http:// 或 https:// 地址':
    'The callback URL is invalid; enter a full http:// or https:// URL',
  '回调地址只支持 http:// 和 https://': 'The callback URL must be http:// or https://',
  回调地址缺少主机名: 'The callback URL has no host name',
  '邮箱地址 {} 不是你的邮箱，请填写你名下的地址或留空（全部地址）':
    'The address {} is not one of your mailboxes; enter one of yours or leave it empty (all addresses)',
  'Webhook 不存在': 'No such webhook',
  '每个账号最多 {} 个 Webhook，请先删除不用的':
    'At most {} webhooks per account; delete ones you do not use first',
  '测试太频繁，每分钟最多 {} 次，请稍后再试':
    'Testing too often: at most {} times per minute; try again later',
  '请填写机器人令牌（botToken），格式如 123456789:AA…': 'Enter the bot token (botToken), like 123456789:AA…',
  '保存太频繁，每分钟最多 {} 次，请稍后再试':
    'Saving too often: at most {} times per minute; try again later',
  '无法连接 Telegram，测试消息没有发出：{}': 'Cannot reach Telegram; the test message was not sent: {}',
  '测试消息没有发出（{}），请检查机器人令牌和聊天编号，并先给机器人发一条消息':
    'The test message was not sent ({}); check the bot token and chat ID, and send the bot a message first',

  // --- data texts: DNS check results (modules/dns), shown as they are by the web client
  '在域名 {} 的 DNS 解析中添加一条 {} 记录：主机记录 {}（即 {}）':
    'in the DNS of the domain {}, add a record of type {} with host {} (that is {})',
  '{}，记录值 {}': '{} and value {}',
  '{}，记录值 {}，优先级 {}': '{}, value {} and priority {}',
  '{}，无法确认 {} 记录；请稍后重试或检查 DNS 服务器设置':
    '{}, so the {} record cannot be confirmed; try again later or check the DNS server settings',
  '{}，无法读取 {} 记录；请稍后重试': '{}, so the {} record cannot be read; try again later',
  '没有找到 MX 记录。请{}': 'No MX record found. To fix it: {}',
  'MX 记录没有指向本服务器 {}。请把 MX 记录改为：{}，并删除其他 MX 记录':
    'The MX record does not point to this server {}. Change it: {}, and delete the other MX records',
  '有优先级更高（数值更小）的 MX 记录指向其他服务器，邮件会先投递到那里。请删除它们，或把 {} 的优先级设为最小':
    'MX records with a higher priority (a smaller number) point to other servers, and mail goes there first. Delete them, or give {} the smallest priority',
  'MX 记录已指向 {}': 'The MX record points to {}',
  '没有找到 SPF 记录。请{}': 'No SPF record found. To fix it: {}',
  '有 {} 条 SPF 记录，收件方会判定为错误（RFC 7208 第 4.5 节）。请合并为一条：{}':
    'There are {} SPF records, which receivers treat as an error (RFC 7208 section 4.5). Merge them into one: {}',
  'SPF 记录没有包含本服务器 {}，从本服务器发出的邮件会被判为伪造。请在 SPF 记录中加入 a:{}{}，例如：{}':
    'The SPF record does not include this server {}, so mail sent from it will be judged forged. Add a:{}{} to the SPF record, for example: {}',
  ' 或 mx': ' or mx',
  'SPF 记录已包含本服务器': 'The SPF record includes this server',
  '没有找到选择器 {} 的 DKIM 记录。请{}': 'No DKIM record found for the selector {}. To fix it: {}',
  'DKIM 记录的公钥与本服务器的密钥不一致，签名将无法通过验证。请把记录值改为：{}':
    'The public key in the DKIM record does not match this server’s key, so signatures will fail verification. Change the value to: {}',
  '选择器 {} 的 DKIM 公钥正确': 'The DKIM public key of the selector {} is correct',
  '没有找到 DMARC 记录。请{}': 'No DMARC record found. To fix it: {}',
  '有 {} 条 DMARC 记录，收件方会忽略全部（RFC 7489 第 6.6.3 节）。请只保留一条：{}':
    'There are {} DMARC records, and receivers ignore them all (RFC 7489 section 6.6.3). Keep only one: {}',
  'DMARC 记录无法解析：必须以 v=DMARC1 开头，且 p= 为 none、quarantine 或 reject。请改为：{}':
    'The DMARC record cannot be parsed: it must start with v=DMARC1 and have p= none, quarantine or reject. Change it to: {}',
  'DMARC 记录有效（策略 p={}）': 'The DMARC record is valid (policy p={})',
  '记录已是正确的值，未做修改': 'the records already had the right values; nothing was changed',
  '新增 {} 条、修改 {} 条、删除 {} 条': '{} added, {} changed, {} deleted',
  '已通过{}写入区域 {}（本次{}）': 'Written through {} to the zone {} ({})',
  '已通过 {} 写入区域 {}': 'Written through {} to the zone {}',
  // MAIL_HOSTNAME (modules/dns/dns-hostname.ts), on the DNS check and the dashboard
  '请把环境变量 MAIL_HOSTNAME 设为本服务器的完整域名（例如 mail.example.com），并为它添加指向本服务器的 A/AAAA 记录':
    'Set the environment variable MAIL_HOSTNAME to this server’s fully qualified name (such as mail.example.com) and give it A/AAAA records pointing to this server',
  'MAIL_HOSTNAME 是 IP 地址（{}），MX 记录不能指向 IP 地址。{}':
    'MAIL_HOSTNAME is an IP address ({}), and an MX record cannot point to an IP address. {}',
  'MAIL_HOSTNAME（{}）不是完整域名（FQDN），其他邮件服务器无法据此找到本服务器。{}':
    'MAIL_HOSTNAME ({}) is not a fully qualified domain name (FQDN), so other mail servers cannot find this server by it. {}',
  'MAIL_HOSTNAME（{}）没有 A/AAAA 记录，其他邮件服务器无法连接本服务器。{}':
    'MAIL_HOSTNAME ({}) has no A/AAAA record, so other mail servers cannot connect to this server. {}',
  'MAIL_HOSTNAME（{}）解析到 {}，不是本服务器的地址。请把它的 A/AAAA 记录指向本服务器；服务器在 NAT 之后时，请用环境变量 PUBLIC_IP 填写公网地址':
    'MAIL_HOSTNAME ({}) resolves to {}, which is not this server’s address. Point its A/AAAA records to this server; behind NAT, set the public address in the environment variable PUBLIC_IP',

  // --- the schemas' field descriptions (packages/contract/src/schemas), named by validation messages
  'CSV 内容': 'CSV content',
  'DNS 服务商类型': 'DNS provider type',
  'DNS 服务器': 'DNS server',
  'TSIG 密钥名': 'TSIG key name',
  'TSIG 算法': 'TSIG algorithm',
  '临时邮箱凭证（只返回一次）': 'Temporary mailbox credential (returned only once)',
  临时邮箱有效时长: 'Temporary mailbox lifetime',
  人工付款说明: 'Manual payment instructions',
  人工确认收款: 'Manual payment confirmation',
  保留本地副本: 'Keep a local copy',
  保留的自动备份份数: 'Automatic backups kept',
  保留邮箱前缀: 'Reserved mailbox names',
  允许临时邮箱和访客注册的邮箱向外部发信: 'Let temporary and self-registered mailboxes send to other sites',
  公告: 'Announcement',
  到期时间: 'Expiry time',
  区域: 'Zone',
  '单个 IP 登录失败上限': 'Failed logins allowed per IP',
  单个账号登录失败上限: 'Failed logins allowed per account',
  单封邮件大小上限: 'Maximum message size',
  原因: 'Reason',
  启用: 'Enabled',
  '回调地址（http:// 或 https://）': 'Callback URL (http:// or https://)',
  垃圾邮件保留天数: 'Days to keep spam',
  外发中继地址: 'Outgoing relay address',
  密钥: 'Key',
  密钥算法: 'Key algorithm',
  延长天数: 'Days to extend',
  开放商店: 'Open the store',
  批次: 'Batch',
  '拒收 DMARC 验证失败且发件域策略为 reject 的邮件':
    'Reject mail that fails DMARC when the sender’s policy is reject',
  数量上限: 'Maximum count',
  易支付: 'EPay',
  易支付商户号: 'EPay merchant ID',
  易支付密钥: 'EPay key',
  是否过期: 'Expired',
  显示名称: 'Display name',
  格式: 'Format',
  '每个 IP 每小时注册上限': 'Registrations allowed per IP per hour',
  每天发信上限: 'Daily sending limit',
  每小时发信上限: 'Hourly sending limit',
  '永不自动封禁的 IP': 'IPs never blocked automatically',
  '登录失败统计时长（分钟）': 'Failed-login window (minutes)',
  确认: 'Confirmation',
  站点名称: 'Site name',
  等待秒数: 'Seconds to wait',
  '自动备份间隔（小时）': 'Automatic backup interval (hours)',
  '自动封禁时长（分钟）': 'Automatic block duration (minutes)',
  订单有效分钟数: 'Minutes an order stays valid',
  转发到: 'Forward to',
  选择器: 'Selector',
  邮件保留天数: 'Days to keep mail',
  邮件签名: 'Signature',
  邮件编号: 'Message ID',
  默认域名: 'Default domain',
  默认邮箱容量: 'Default mailbox quota',

  // --- data texts: the security screen (devices, why a login failed) and the blacklist's reasons
  未知设备: 'Unknown device',
  未知系统: 'Unknown system',
  '命令行或程序（{}）': 'Command line or program ({})',
  '{} · {}': '{} · {}',
  'Android 手机': 'Android phone',
  'Android 平板': 'Android tablet',
  鸿蒙设备: 'HarmonyOS device',
  'Windows 电脑': 'Windows PC',
  'ChromeOS 电脑': 'ChromeOS computer',
  'Mac 电脑': 'Mac',
  'Linux 电脑': 'Linux PC',
  微信: 'WeChat',
  'QQ 浏览器': 'QQ Browser',
  'UC 浏览器': 'UC Browser',
  'Edge 浏览器': 'Edge',
  'Opera 浏览器': 'Opera',
  '无界面 Chrome': 'Headless Chrome',
  'Firefox 浏览器': 'Firefox',
  'Chrome 浏览器': 'Chrome',
  'Safari 浏览器': 'Safari',
  '微信 {}': 'WeChat {}',
  'QQ 浏览器 {}': 'QQ Browser {}',
  'UC 浏览器 {}': 'UC Browser {}',
  'Edge 浏览器 {}': 'Edge {}',
  'Opera 浏览器 {}': 'Opera {}',
  '无界面 Chrome {}': 'Headless Chrome {}',
  'Firefox 浏览器 {}': 'Firefox {}',
  'Chrome 浏览器 {}': 'Chrome {}',
  'Safari 浏览器 {}': 'Safari {}',
  密码错误: 'Wrong password',
  邮箱不存在: 'No such mailbox',
  邮箱已停用: 'Mailbox disabled',
  邮箱已过期: 'Mailbox expired',
  账号已停用: 'Account disabled',
  '失败次数过多，已被限制': 'Too many failures; throttled',
  '{} 分钟内登录失败 {} 次，自动封禁 {} 分钟':
    'Within {} minutes, {} failed logins: blocked automatically for {} minutes',
  'SMTP：大量投递到不存在的邮箱（疑似地址探测）':
    'SMTP: many deliveries to nonexistent mailboxes (probably address probing)',
  'SMTP：多次发送裸 CR/LF（疑似 SMTP 走私）': 'SMTP: bare CR/LF sent repeatedly (probably SMTP smuggling)',

  // --- data texts: the certificates screen (what is wrong with a certificate, the last ACME error)
  '{} 不是有效的 PEM 证书': '{} is not a valid PEM certificate',
  '{} 不是有效的 PEM 私钥': '{} is not a valid PEM private key',
  '{} 与证书不匹配，请放入签发该证书时使用的私钥':
    '{} does not match the certificate; put there the private key the certificate was issued for',
  '证书已过期，请续期（例如 certbot renew）后重新加载':
    'The certificate has expired; renew it (with certbot renew, say) and reload',
  '证书尚未生效，请检查本机时间': 'The certificate is not valid yet; check this machine’s clock',
  '证书无法使用：{}': 'The certificate cannot be used: {}',
  '缺少 {} 或 {}': '{} or {} is missing',
  '无法连接 ACME 服务器 {}（{}），请检查 ACME_DIRECTORY_URL 与网络':
    'Cannot connect to the ACME server {} ({}); check ACME_DIRECTORY_URL and the network',
  '无法解析 ACME 服务器 {} 的域名（{}）': 'Cannot resolve the name of the ACME server {} ({})',
  'ACME 服务器 {} 的证书不受信任（{}）；私有 CA 请用 ACME_CA_BUNDLE 指定其根证书':
    'The certificate of the ACME server {} is not trusted ({}); for a private CA, name its root certificate in ACME_CA_BUNDLE',
  '连接 ACME 服务器 {} 超时，请稍后重试': 'Connecting to the ACME server {} timed out; try again later',
  'ACME 签发失败：{}': 'ACME issuance failed: {}',
  'CA 没有为 {} 提供 {} 验证方式': 'The CA offers {} no challenge of type {}',
  '{} 的 {} 验证失败：{}': 'Validating {} by {} failed: {}',
  'CA 长时间未完成验证，稍后重试': 'The CA took too long to validate; will retry later',
  'ACME 验证记录清理失败：{}': 'Cleaning up the ACME validation record failed: {}',
  'CA 拒绝了证书请求（订单无效）': 'The CA refused the certificate request (the order is invalid)',
  'CA 长时间未签发证书，稍后重试': 'The CA took too long to issue the certificate; will retry later',
  'CA 返回的证书为空': 'The CA returned an empty certificate',
  'CA 返回的证书与私钥不匹配': 'The certificate the CA returned does not match the private key',
  'ACME 地址必须是 https：{}': 'The ACME address must be https: {}',
  'ACME 服务器的应答过大': 'The ACME server’s answer is too large',
  'ACME 服务器返回了无效的 JSON': 'The ACME server returned invalid JSON',
  '连接 {} 超时': 'Connecting to {} timed out',
  '域名 {} 没有配置 DNS 服务商（RFC 2136），无法用 DNS-01 为 {} 申请证书':
    'The domain {} has no DNS provider (RFC 2136), so no certificate can be requested for {} with DNS-01',
  '{} 不属于本系统中的任何域名，无法用 DNS-01 申请证书；请先添加域名并配置 DNS 服务商':
    '{} belongs to no domain of this system, so DNS-01 cannot be used; add the domain and set up its DNS provider first',
  '写入 DNS 记录失败：{}': 'Writing the DNS record failed: {}',
  'DNS 服务器 {} 没有应答，无法写入 DNS-01 验证记录':
    'The DNS server {} did not answer, so the DNS-01 validation record cannot be written',
  'DNS 服务器拒绝了 TSIG 密钥“{}”，请检查域名的 DNS 服务商设置':
    'The DNS server refused the TSIG key “{}”; check the domain’s DNS provider settings',
  'DNS 服务器 {} 拒绝写入区域 {}（{}），请检查授权（update-policy）':
    'The DNS server {} refused to write the zone {} ({}); check its authorization (update-policy)',
  '写入 DNS-01 验证记录失败（{}：{}）': 'Writing the DNS-01 validation record failed ({}: {})',
  'DNS-01 验证记录 {} 在 {} 秒内未出现在权威服务器 {} 上，请检查区域同步':
    'The DNS-01 validation record {} did not appear within {} seconds on the authoritative servers {}; check the zone’s replication',
  '已停止等待 DNS-01 验证记录（服务正在关闭）':
    'Stopped waiting for the DNS-01 validation record (the service is shutting down)',
  'DNS 服务器地址“{}”格式不正确，请重新设置 DNS 服务商':
    'The DNS server address “{}” is malformed; set up the DNS provider again',
  '命令行或程序（node）': 'Command line or program (node)',

  // --- data texts: why a webhook delivery failed (testWebhook, getWebhookDeliveries)
  '目标 {} 指向本机、内网或保留地址（{}），已拒绝；需要时请管理员设置 WEBHOOK_ALLOW_PRIVATE=1':
    'Refused: the target {} points to a loopback, private or reserved address ({}); an administrator can set WEBHOOK_ALLOW_PRIVATE=1 if needed',
  '无法解析 {}': 'Cannot resolve {}',
  '只支持 http 和 https': 'Only http and https are supported',
  '地址无效：{}': 'Invalid address: {}',
  '服务停止，投递中断': 'The service stopped; the delivery was interrupted',
  '超过 {} 秒没有完成': 'Not finished within {} seconds',
  'Telegram：{}': 'Telegram: {}',
  'Telegram 返回 HTTP {}': 'Telegram answered HTTP {}',
  '邮件已被删除，不再投递': 'The message has been deleted; no longer delivered',
  '多次重试仍未成功，已放弃：{}': 'Gave up after repeated retries: {}',
  '内部错误：{}': 'Internal error: {}',

  // --- data texts: a sent message's deliveries (getSentDetail); a remote server's answer stays as it came
  投递因服务停止而中断: 'Delivery was interrupted because the service stopped',
  '550 5.1.1 本站没有收件人 {}（邮箱不存在、已停用或已过期）':
    '550 5.1.1 No recipient {} here (the mailbox does not exist, is disabled or has expired)',
  '550 5.7.1 收件人的内容过滤规则拒收了这封邮件':
    '550 5.7.1 The recipient’s filter rules rejected this message',
  '550 5.7.1 发件域的 DMARC 策略要求拒收这封邮件':
    '550 5.7.1 The sender domain’s DMARC policy requires rejecting this message',
  '552 5.3.4 邮件结构超出本站限制': '552 5.3.4 The message structure exceeds this site’s limits',
  '452 4.2.2 收件人邮箱已满': '452 4.2.2 The recipient’s mailbox is full',
  '451 4.3.0 本站存储暂时不可用': '451 4.3.0 Storage here is temporarily unavailable',
  '中继地址无效，请管理员检查发信中继设置':
    'The relay address is invalid; the administrator should check the relay setting',
  '250 已被收件人的过滤规则丢弃': '250 Discarded by the recipient’s filter rules',
  '250 已投递到本站邮箱（{}）': '250 Delivered to a mailbox here ({})',
  '多次重试仍未送达，已放弃（共 {} 次）：{}':
    'Not delivered after repeated retries; gave up ({} attempts): {}',
  '内部错误：没有投递结果': 'Internal error: no delivery result',
  '收件域名 {} 声明不接收邮件（null MX，RFC 7505）':
    'The recipient domain {} declares that it accepts no mail (null MX, RFC 7505)',
  '收件域名 {} 不存在（DNS 查询无此域名）': 'The recipient domain {} does not exist (DNS has no such domain)',
  '查询 {} 的 MX 记录失败（{}），稍后重试': 'Looking up the MX records of {} failed ({}); will retry later',
  '{} 没有 A/AAAA 记录': '{} has no A/AAAA record',
  '{}[{}]：{}': '{}[{}]: {}',
  '无法连接收件域名 {} 的邮件服务器：{}': 'Cannot connect to the mail servers of the recipient domain {}: {}',
  '{}；{}': '{}; {}',
  '；': '; ',
  '中继服务器拒绝了登录凭据（{}），请管理员检查中继设置':
    'The relay server refused the login credentials ({}); the administrator should check the relay setting',
  '{}：{} {}': '{}: {} {}',
  '连接 {}': 'connecting to {}',
  '{}：服务器没有答复这个收件人': '{}: the server gave no answer for this recipient',

  // --- data texts: the store (why an address cannot be had, the pay methods' names)
  支付宝: 'Alipay',
  微信支付: 'WeChat Pay',
  'QQ 钱包': 'QQ Wallet',
  人工确认付款: 'Manual payment',

  // --- data texts: why the latest copy was not forwarded (getForward)
  '已达每小时发信上限（{} 封），这封邮件未转发':
    'The hourly sending limit ({}) was reached; this message was not forwarded',
  '已达每天发信上限（{} 封），这封邮件未转发':
    'The daily sending limit ({}) was reached; this message was not forwarded',
  '退信（发件人为空）不转发，以免形成退信循环':
    'Bounces (empty sender) are not forwarded, to avoid bounce loops',
  '这封邮件已经被本站转发过一次，为防止转发循环不再转发':
    'This message was already forwarded by this site once; not forwarded again, to prevent a loop',
  '这封邮件已经过 {} 次中转，可能存在转发循环，不再转发':
    'This message has passed {} relays and may be looping; not forwarded',
  '这封邮件来自转发目标地址本身，为防止转发循环不再转发':
    'This message came from the forwarding address itself; not forwarded, to prevent a loop',
  垃圾邮件不转发: 'Spam is not forwarded',
  临时邮箱和自助注册的邮箱不能把邮件转发到站外:
    'Temporary and self-registered mailboxes cannot forward mail elsewhere',
  '转发目标已是本站的地址，不再转发': 'The forwarding address is on this site; not forwarded',
  '发件人地址无法改写（SRS），这封邮件未转发':
    'The sender address could not be rewritten (SRS); this message was not forwarded',
};
