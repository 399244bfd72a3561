/**
 * The API's messages in English, keyed by their Chinese text (see index.ts): `{}` stands for a
 * value filled in at run time, in the same order in both languages.
 */
export const ENGLISH: Readonly<Record<string, string>> = {
  '请求体不是有效的 JSON，请检查格式': 'The request body is not valid JSON; check its format',
  '请求体为空，请提交 JSON 数据': 'The request body is empty; send JSON data',
  '请求体过大，请减小提交的内容': 'The request body is too large; send less',
  '不支持的内容类型，请以 JSON（application/json）提交':
    'Unsupported content type; send JSON (application/json)',
  请求长度与内容不符: 'The request length does not match its content',
  '请求地址中的参数格式不正确或过长，请检查后重试':
    'A parameter in the request address is malformed or too long; check it and try again',
  '接口不存在：{}': 'No such API call: {}',
  '文件不存在：{}': 'No such file: {}',
  '数据库暂时无法连接，操作没有完成；服务会自动重连，请稍后重试，问题持续时请联系站点管理员':
    'The database cannot be reached right now and the operation did not complete; the service reconnects by itself. Try again shortly, and contact the site administrator if it persists',
};
